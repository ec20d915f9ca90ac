"""A settled turn's checkpoints are dropped, so the checkpoint file stops growing turn after
turn; a turn paused for the user keeps its own (it resumes from them)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.runtime.helpers import new_turn, run
from tests.support.fake_openai import Reply

pytestmark = pytest.mark.usefixtures("researcher")


def _checkpoint_rows(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0]


async def test_settled_turns_leave_no_checkpoints(
    store, runtime, fake_openai, openai_model, tmp_path: Path
):
    counts = []
    parent = None
    for n in range(3):
        fake_openai.script(Reply(content=f"answer {n} " * 50))
        user = new_turn(store, "researcher", f"question {n}", parent_id=parent)
        events = await run(runtime, user, openai_model())
        parent = events[-1].leaf_id
        counts.append(_checkpoint_rows(tmp_path / "checkpoints.db"))
    assert counts == [0, 0, 0]
