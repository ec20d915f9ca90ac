"""What sending will do, as one piece of state: a fork or an edit (never both), the files
waiting to be attached, and the composer's subtitle derived from them."""

from __future__ import annotations

from pathlib import Path

from weaver_tui.compose_mode import ComposeMode


def test_fork_and_edit_exclude_each_other_and_the_hint_follows() -> None:
    mode = ComposeMode()
    assert mode.hint == "" and not mode.active
    mode.fork("m1")
    assert mode.forking and mode.hint.startswith("fork:")
    mode.edit("m2", "assistant", 1, 2)
    assert not mode.forking and mode.editing_reply
    assert mode.hint == "editing reply v1/2: Enter saves v3"
    mode.edit("m3", "user", 2, 2)
    assert mode.hint == "editing v2/2: Enter sends v3" and not mode.editing_reply


def test_attachments_wait_through_a_mode_change_and_go_with_the_message() -> None:
    mode = ComposeMode()
    mode.attach(Path("logs/build.log"))
    mode.attach(Path("logs/build.log"))
    assert mode.hint == "📎 build.log: sent with your next message"
    mode.fork("m1")
    mode.clear()
    assert mode.attachments == [Path("logs/build.log")]
    mode.sent()
    assert mode.attachments == [] and mode.hint == ""
