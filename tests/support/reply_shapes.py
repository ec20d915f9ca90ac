"""Generated final-reply shapes for the fake server, and the check of how a turn ended on one.

A shape: content empty, blank (whitespace, zero-width or format characters, an escape
sequence: nothing that shows) or text; tool calls none, whole or cut mid-arguments; any finish
reason (``stop``, ``tool_calls``, ``length``, ``content_filter``, reasons of other APIs that
end a reply normally, reasons no allowlist knows, or none sent); a refusal or not. :func:`check_turn_ending` asserts the guarantee on the events and the stored
record: complete (text, or tools that ran on whole arguments) or marked with one sentence, and
no tool ran on a reply the server cut, filtered or refused.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from agents.runtime.events import RunError, RunEvent, RunFinished, ToolFinished, ToolStarted
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.openai_script import Reply, ToolCall

MARKS = frozenset({"refused", "filtered", "truncated", "unfinished", "empty"})
ENDING = ("stop", "tool_calls", "STOP", "end_turn", "eos")
"""Finish reasons that end a reply normally, as servers spell them."""
UNFINISHED = ("error", "MALFORMED_FUNCTION_CALL", "abort", "other")
"""Finish reasons that say a reply did not end normally, in no list of known ones."""
FINISHES = ["length", "content_filter", None, *ENDING, *UNFINISHED]
BLANKS = ("", "   ", "\n\t", "\u200b", "\u2060\ufeff\u00ad", "\x1b[0m", " \u0301\u3000",
          "Thinking it over.</think>\n")  # fmt: skip
"""Contents with no answer that shows: empty, spaces, zero-width and format characters, an
escape sequence, a lone combining mark, thinking whose ``<think>`` the prompt opened."""


def blank(content: str) -> bool:
    return content in BLANKS


def unfinished(finish: str | None) -> bool:
    """Whether ``finish`` says the reply did not end normally (cut, filtered, unknown)."""
    return finish is not None and finish not in ENDING


@st.composite
def final_replies(
    draw: st.DrawFn, tool: str, whole: dict[str, Any], text: str = "Noted, thank you."
) -> tuple[Reply, dict[str, Any]]:
    """A ``Reply`` of a generated shape calling ``tool`` (with ``whole`` or cut arguments)."""
    content = draw(st.sampled_from([*BLANKS, text]))
    calls = draw(st.sampled_from(["none", "whole", "cut"]))
    finish = draw(st.sampled_from(FINISHES))
    refusal = draw(st.sampled_from([None, "I can't help with that."]))
    cut = json.dumps(whole)[: max(2, len(json.dumps(whole)) - 8)]
    tool_calls = (
        [] if calls == "none" else [ToolCall(tool, whole if calls == "whole" else cut, id="c1")]
    )
    reply = Reply(
        content=content,
        tool_calls=tool_calls,
        finish_reason=finish,
        no_finish_reason=finish is None,
        refusal=refusal,
    )
    return reply, {"content": content, "calls": calls, "finish": finish, "refusal": refusal}


def one_sentence(text: str) -> bool:
    return bool(text.strip()) and "\n" not in text and text.rstrip().endswith(".")


def stopped_by_server(shape: dict[str, Any]) -> bool:
    return unfinished(shape["finish"]) or bool(shape["refusal"])


def check_turn_ending(
    events: list[RunEvent],
    store: SqliteConversationStore,
    shape: dict[str, Any],
    whole: dict[str, Any],
) -> None:
    """The guarantee, on one turn whose first reply had ``shape``."""
    end = events[-1]
    assert isinstance(end, RunFinished | RunError), end
    started = [e for e in events if isinstance(e, ToolStarted)]
    if stopped_by_server(shape):
        assert started == [], "no call of a cut, filtered or refused reply runs"
        assert isinstance(end, RunError)
    for call in started:  # every call that ran had whole arguments (or was answered as broken)
        assert call.args in (whole, {})
    if isinstance(end, RunFinished):
        assert end.status == "complete"
        leaf = store.get_message(end.leaf_id)
        assert leaf.status is MessageStatus.COMPLETE
        ran = any(e.error is None for e in events if isinstance(e, ToolFinished))
        assert leaf.content.strip() or leaf.tool_calls or ran
        return
    assert end.record is not None
    stored = store.get_message(end.record.id)
    assert stored.status is MessageStatus.ERROR
    assert stored.meta["error"] == end.error.user_message
    assert one_sentence(stored.meta["error"])
    if stopped_by_server(shape) or (shape["calls"] == "none" and blank(shape["content"])):
        assert stored.meta.get("outcome") in MARKS
    if shape["refusal"]:
        assert stored.meta["outcome"] == "refused"
        assert stored.content == shape["refusal"]
    elif shape["finish"] == "content_filter":
        assert stored.meta["outcome"] == "filtered"
    elif shape["finish"] == "length":
        assert stored.meta["outcome"] == "truncated"
    elif unfinished(shape["finish"]):
        assert stored.meta["outcome"] == "unfinished"
