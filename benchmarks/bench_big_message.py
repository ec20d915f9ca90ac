"""Peak memory of refusing a 50 MB paste in the composer, against the same app receiving none.

Each figure is a fresh headless app process (``ru_maxrss`` at its end): the baseline starts
the composer and quits; the measured one also receives a 50 MB paste, which the composer must
refuse whole (the ``max_message_bytes`` limit, 2 MB by default) without the editor ever
holding it. Target: peak RSS under 300 MB.

    .venv/bin/python benchmarks/bench_big_message.py [--megabytes 50]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MB = 300.0

CHILD = """
import asyncio, resource, sys
from textual import events
from textual.app import App
from themes.weaver import ROLE_VARIABLE_DEFAULTS
from weaver_tui.widgets.composer import Composer

class Host(App):
    def get_theme_variable_defaults(self):
        return dict(ROLE_VARIABLE_DEFAULTS)

    def compose(self):
        yield Composer()

async def main(megabytes):
    app = Host()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        if megabytes:
            text = "x" * (megabytes * 1_000_000)
            await composer._on_paste(events.Paste(text))
            del text
            assert composer.text == ""
        await pilot.pause()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)

asyncio.run(main(int(sys.argv[1])))
"""


def peak_mb(megabytes: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(megabytes)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return float(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--megabytes", type=int, default=50)
    args = parser.parse_args(argv)
    base = peak_mb(0)
    big = peak_mb(args.megabytes)
    verdict = "PASS" if big < TARGET_MB else "FAIL"
    print(f"peak RSS refusing a {args.megabytes} MB paste: {big:.1f} MB   baseline (no paste) "
          f"{base:.1f} MB   ratio {big / base:.2f}x   target < {TARGET_MB:.0f} MB   {verdict}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
