"""``conversation_busy`` says whether another turn holds a conversation's lock, without taking
it for longer than a look and without creating anything in the data folder."""

from __future__ import annotations

from pathlib import Path

from agents.runtime.turn_lock import conversation_busy, conversation_turn


def test_busy_only_while_a_turn_holds_the_lock_and_a_look_creates_nothing(
    tmp_path: Path,
) -> None:
    assert not conversation_busy(tmp_path, "c1")
    assert not (tmp_path / "locks").exists()
    with conversation_turn(tmp_path, "c1"):
        assert conversation_busy(tmp_path, "c1")
        assert not conversation_busy(tmp_path, "c2")
    assert not conversation_busy(tmp_path, "c1")
    with conversation_turn(tmp_path, "c1"):  # a look never kept the lock
        pass
