"""The next start after a rewind killed between its renames finishes it before anything else
and says so in one sentence on stderr (a real child process killed after its first rename,
then a real ``weaver-tui`` command on the same data folder)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from agents.patch_review.rewind import REVERTED
from tests.support.killed_rewinds import Change, expected, listing, run_child, setup, statuses

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def test_the_next_start_finishes_a_killed_rewind_and_says_so(
    weaver: Weaver, tmp_path: Path
) -> None:
    files = [Change("a.txt", "one\r\n", "two"), Change("b.txt", "three", "four\n")]
    root, db, leaf, records = setup(tmp_path, files)
    assert db.parent == tmp_path / "data"  # the data folder the command below opens
    assert run_child(root, db, leaf, 2).returncode == -9  # after the first rename
    assert listing(root) not in (expected(files, True), expected(files, False))

    shown = weaver("conversations")

    assert shown.returncode == 0, shown.stderr
    told = [line for line in shown.stderr.splitlines() if "a.txt" in line and "b.txt" in line]
    assert len(told) == 1
    assert listing(root) == expected(files, reverted=True)
    assert statuses(db, records) == {REVERTED}
    again = weaver("conversations")
    assert "a.txt" not in again.stderr
