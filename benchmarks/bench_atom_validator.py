"""The atom validator's speed: level 1 alone, the sandbox run (levels 2 and 3), and a full
validation of the known-good atoms, against a bare ``python -I -S -c pass`` spawn.

Every figure is the median of ``--runs`` runs (default 20), measured in the same run as the
baseline; the sandbox rate is runs per second of the sandbox alone.

    .venv/bin/python benchmarks/bench_atom_validator.py [--runs 20]

Target: full validation < 300 ms median.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.profiles.atom_developer.validation import validate  # noqa: E402
from agents.profiles.atom_developer.validation.contract import (  # noqa: E402
    contract_cases,
    twin_cases,
)
from agents.profiles.atom_developer.validation.sandbox import run_atoms  # noqa: E402
from agents.profiles.atom_developer.validation.spec import read_spec  # noqa: E402
from agents.profiles.atom_developer.validation.static_check import check_static  # noqa: E402

TARGET_MS = 300.0
GOOD = (ROOT / "tests" / "atom_developer" / "atoms" / "good.py").read_text(encoding="utf-8")
SPEC = "pattern: 'regex:(?i)error'\n"
SAMPLE = "Error 1 on boot\nall fine\nERROR 500 disk full\n"


def median_ms(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        work()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return statistics.median(times)


def baseline() -> None:
    subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True, env={})


def sandbox_run() -> None:
    atoms = check_static(GOOD).atoms
    spec, _ = read_spec(SPEC)
    assert spec is not None
    cases = contract_cases(atoms, SAMPLE) + twin_cases(spec, atoms, SAMPLE)
    result = asyncio.run(run_atoms(GOOD, [case.call for case in cases]))
    assert not result.stopped
    assert len(result.outcomes) == len(cases)


def full() -> None:
    assert validate(GOOD, SPEC, SAMPLE).valid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="3 runs, for the smoke test")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else args.runs
    base = median_ms(runs, baseline)
    static = median_ms(runs, lambda: check_static(GOOD))
    sandbox = median_ms(runs, sandbox_run)
    whole = median_ms(runs, full)
    passed = whole < TARGET_MS
    print(f"atom validator: median of {runs} runs on the known-good atoms (3 atoms, spec, sample)")
    print(f"  baseline: bare python -I -S spawn   {base:8.1f} ms")
    print(f"  figure: level 1 (AST) alone         {static:8.2f} ms")
    print(
        f"  figure: sandbox run (levels 2+3)    {sandbox:8.1f} ms  ({sandbox / base:.1f}x baseline)"
    )
    print(f"  figure: sandbox runs per second     {1000 / sandbox:8.1f}")
    print(f"  figure: full validation             {whole:8.1f} ms  ({whole / base:.1f}x baseline)")
    print(f"  target: full validation < {TARGET_MS:.0f} ms median  {'PASS' if passed else 'FAIL'}")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
