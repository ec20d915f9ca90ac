"""What a served page sends is read against an allowlist
(:func:`weaver_tui.core.page_messages.page_message`): any text frame gives an allowed message
or ``None``, never an exception; the page script's own messages all pass. The server's
handling of a refused frame is tested in ``test_guarded_server``."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.page_messages import page_message

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)
KINDS = {"stdin", "ping", "resize", "focus", "blur"}


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_frame_gives_an_allowed_message_or_none(frame: str) -> None:
    message = page_message(frame)
    assert message is None or message.kind in KINDS


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_any_json_frame_gives_an_allowed_message_or_none(value: object) -> None:
    message = page_message(json.dumps(value))
    assert message is None or message.kind in KINDS
    if message is not None and message.kind in ("stdin", "ping"):
        message.text.encode("utf-8")


@settings(max_examples=100, deadline=None)
@given(st.text(), st.integers(), st.integers())
def test_the_page_scripts_own_messages_pass(text: str, width: int, height: int) -> None:
    assert page_message(json.dumps(["stdin", text])) is not None
    assert page_message(json.dumps(["ping", text])) is not None
    resize = page_message(json.dumps(["resize", {"width": width, "height": height}]))
    assert resize is not None
    assert (resize.width, resize.height) == (width, height)
    assert page_message('["focus"]') is not None
    assert page_message('["blur"]') is not None


def test_deep_nesting_is_refused_not_raised() -> None:
    assert page_message("[" * 100_000 + "]" * 100_000) is None
