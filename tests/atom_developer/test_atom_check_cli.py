"""``weaver-tui atom check`` through the real command: exit 0 valid, 1 not valid (the report
printed), 2 for a file it cannot read."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.atom_developer.conftest import ATOMS
from tests.cli.conftest import weaver

__all__ = ["weaver"]


def test_the_good_atoms_are_valid(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("pattern: 'regex:(?i)error'\n")
    sample = tmp_path / "sample.log"
    sample.write_text("Error 1 on boot\nfine\n")
    done = weaver(
        "atom", "check", str(ATOMS / "good.py"), "--spec", str(spec), "--sample", str(sample)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("- Level 1 · AST: passed (")
    assert "- Level 3 · twin consistency: passed (" in done.stdout


def test_a_broken_atom_is_not_valid_and_the_report_says_why(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    done = weaver("atom", "check", str(ATOMS / "bad_value.py"))
    assert done.returncode == 1, done.stderr
    assert "- Level 2 · contract run: failed (" in done.stdout
    assert "Atom A: 'value' is int, must be str" in done.stdout


def test_a_missing_file_is_one_sentence_and_exit_2(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    done = weaver("atom", "check", str(tmp_path / "nope.py"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == f"weaver-tui: {tmp_path / 'nope.py'} is not a file."


def test_a_file_too_big_is_refused(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    big = tmp_path / "big.py"
    big.write_text("#" * (300 * 1024))
    done = weaver("atom", "check", str(big))
    assert done.returncode == 2
    assert "is larger than 256 KiB" in done.stderr


def test_a_file_with_only_check_existence_is_checked_against_its_own_contract(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    done = weaver("atom", "check", str(ATOMS / "only_existence.py"), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["valid"] is True
    assert data["atoms"] == ["check_existence"]


def test_a_file_without_an_atom_is_not_valid(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    done = weaver("atom", "check", str(ATOMS / "no_atom.py"), "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["valid"] is False
    assert data["errors"] == [
        "no atom found: define extract_context, validate_logic or check_existence"
    ]
    assert [level["status"] for level in data["levels"]] == ["failed", "skipped", "skipped"]


def test_a_60000_term_expression_is_refused_in_one_sentence(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    huge = tmp_path / "huge.py"
    huge.write_text("def check_existence(items):\n    return " + "+".join(["1"] * 60_000) + "\n")
    done = weaver("atom", "check", str(huge), "--json")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    (error,) = json.loads(done.stdout)["errors"]
    assert error.startswith("the code is nested too deeply or an expression is too long")
