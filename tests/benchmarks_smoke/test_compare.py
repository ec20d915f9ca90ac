"""``benchmarks/compare`` still runs: one ``--quick`` round against HEAD, every row of its table.

Not a timing check (figures on a shared machine mean nothing, so ``--quick`` skips the untimed
warm-up round and measures a checkout's launch and two replies in one process, and reads the
plain HTTP baselines in the bare app's process; a message typed at once is a launch of its
own): the script passes when it
builds the other commit's worktree, measures both checkouts and their baselines, prints a row
per figure with both sides and a verdict for each target, and removes the worktree again.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETED = (
    "launch -> composer takes keys",
    "short reply on screen",
    "short reply, typed 0.3 s in",
    "long reply on screen",
    "peak RSS after the long reply",
)
ROWS = (*TARGETED, "launch -> warm-up over (info)")


def _worktrees() -> list[str]:
    listed = subprocess.run(
        ["git", "worktree", "list", "--porcelain"], cwd=ROOT, capture_output=True, text=True
    )
    return [line for line in listed.stdout.splitlines() if line.startswith("worktree ")]


def test_compare_measures_both_checkouts_and_prints_every_row(tmp_path: Path) -> None:
    # Its temporary worktree goes under this test's own folder, so worktrees that other
    # checkouts of the repository add or remove meanwhile do not count.
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run(
        [str(ROOT / "benchmarks" / "compare"), "HEAD", "--quick"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-2000:]
    rows = {line.split("  ")[0].strip(): line for line in done.stdout.splitlines()}
    for row in ROWS:
        assert row in rows, done.stdout
    for row in TARGETED:
        assert rows[row].count("PASS") + rows[row].count("FAIL") == 2, rows[row]
    ours = [line for line in _worktrees() if line.startswith(f"worktree {tmp_path.resolve()}")]
    assert ours == []  # the temporary worktree is gone
