"""The two allowlists of the outcome classifier, over generated replies: a finish reason ends a
reply normally only when it is one of :data:`ENDING` (any other string, a server's ``error`` or
Gemini's ``MALFORMED_FUNCTION_CALL`` included, is ``unfinished``: marked, its calls never run);
and a reply is written only when its text parts show a letter, digit, punctuation mark or
symbol (blanks, zero-width and format characters, controls, escape sequences, lone combining
marks and non-text parts are ``empty``)."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage

from agents.reply_outcome import (
    ENDING,
    FILTERING,
    KNOWN_REASONS,
    MARKED,
    REFUSING,
    TRUNCATING,
    finish_reason_of,
    reply_outcome,
)
from agents.structured.call import NoAnswer
from tests.support.reply_shapes import one_sentence

CALL = {"name": "read_file", "args": {"path": "a.py"}, "id": "c1"}
SPELLED = st.sampled_from(sorted(ENDING)).flatmap(
    lambda r: st.sampled_from([r, r.upper(), r.title(), f" {r}\n"])
)
OTHER_REASONS = st.one_of(
    st.sampled_from(["error", "MALFORMED_FUNCTION_CALL", "abort", "OTHER", "recitation_x",
                     "FINISH_REASON_UNSPECIFIED", "end", "stopped", "tool_call"]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz_ABC", min_size=1, max_size=16),
)  # fmt: skip
INVISIBLE = st.one_of(
    st.characters(categories=["Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me", "Co"]),
    st.sampled_from(["\x1b[31m", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x9b2J"]),
)
BLANKS = st.lists(INVISIBLE, max_size=8)


def message(content: Any, finish: str | None, calls: bool = False) -> AIMessage:
    return AIMessage(
        content=content,
        response_metadata={"finish_reason": finish} if finish is not None else {},
        tool_calls=[CALL] if calls else [],
    )


@settings(max_examples=200, deadline=None)
@given(reason=OTHER_REASONS, text=st.sampled_from(["", "Half of it"]), calls=st.booleans())
def test_a_finish_reason_outside_the_allowlist_is_unfinished_and_runs_nothing(
    reason: str, text: str, calls: bool
) -> None:
    lowered = reason.lower()
    outcome = reply_outcome(message(text, reason, calls))

    if lowered in ENDING:
        assert outcome.kind in ("complete", "calls", "empty")
    elif lowered in TRUNCATING | FILTERING | REFUSING:
        assert outcome.kind in ("truncated", "filtered", "refused")
    else:
        assert outcome.kind == "unfinished", (reason, outcome)
        assert outcome.text == text
        assert one_sentence(outcome.sentence())
    assert outcome.marked or outcome.kind in ("complete", "calls")
    if outcome.kind == "calls":
        assert lowered in ENDING


@settings(max_examples=100, deadline=None)
@given(
    reason=st.one_of(
        st.integers().filter(bool),
        st.just(True),
        st.dictionaries(st.sampled_from(["type", "reason"]), st.sampled_from(["stop"]), min_size=1),
        st.lists(st.sampled_from(["stop", "end_turn"]), min_size=1, max_size=2),
    ),
    text=st.sampled_from(["", "Half of it"]),
    calls=st.booleans(),
)
def test_a_finish_reason_that_is_not_text_is_unfinished(
    reason: Any, text: str, calls: bool
) -> None:
    meta = AIMessage(content=text, response_metadata={"finish_reason": reason})
    if calls:
        meta.tool_calls = [CALL]  # type: ignore[list-item]

    assert reply_outcome(meta).kind == "unfinished"


@settings(max_examples=100, deadline=None)
@given(reason=SPELLED, text=st.sampled_from(["Done.", "42", "→"]), calls=st.booleans())
def test_a_reason_that_ends_a_reply_normally_keeps_it_complete(
    reason: str, text: str, calls: bool
) -> None:
    outcome = reply_outcome(message(text, reason, calls))

    assert outcome.kind == ("calls" if calls else "complete")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(KNOWN_REASONS), min_size=1, max_size=4), OTHER_REASONS)
def test_only_known_reasons_glued_together_are_read_as_their_last(
    glued: list[str], other: str
) -> None:
    assert finish_reason_of(message("x", "".join(glued))) == glued[-1]
    # A reason that merely ends like a known one is itself (not the known one it ends with).
    unknown = other.lower() + "_function_call"
    assert finish_reason_of(message("x", unknown)) == unknown
    assert reply_outcome(message("x", unknown, calls=True)).kind == "unfinished"


@settings(max_examples=200, deadline=None)
@given(pieces=BLANKS, finish=st.sampled_from(["stop", None, "end_turn"]), shown=st.characters(
    categories=["Lu", "Ll", "Lo", "Nd", "No", "Po", "Pd", "Sm", "So", "Sc"]))  # fmt: skip
def test_a_reply_is_written_only_when_something_of_it_shows(
    pieces: list[str], finish: str | None, shown: str
) -> None:
    blank = "".join(pieces)
    assert reply_outcome(message(blank, finish)).kind == "empty"
    assert reply_outcome(message([{"type": "text", "text": blank}], finish)).kind == "empty"
    middle = len(pieces) // 2
    visible = "".join([*pieces[:middle], shown, *pieces[middle:]])
    if unicodedata.combining(shown) == 0:
        assert reply_outcome(message(visible, finish)).kind == "complete"


@settings(max_examples=100, deadline=None)
@given(
    kind=st.sampled_from(["thinking", "reasoning", "image_url", "refusal", "tool_use", "x"]),
    text=st.sampled_from(["hmm", "Let me think.", "42"]),
)
def test_only_text_parts_are_the_reply(kind: str, text: str) -> None:
    parts: list[str | dict[str, Any]] = [{"type": kind, "text": text, kind: text}]
    assert reply_outcome(message(parts, "stop")).kind == "empty"
    parts.append({"type": "text", "text": "Answer."})
    assert reply_outcome(message(parts, "stop")).text == "Answer."


@settings(max_examples=100, deadline=None)
@given(
    thinking=st.text(alphabet="abc .\n", max_size=20),
    pieces=BLANKS,
    answer=st.sampled_from(["", "The answer is 4."]),
)
def test_thinking_the_prompt_opened_is_not_the_answer(
    thinking: str, pieces: list[str], answer: str
) -> None:
    outcome = reply_outcome(message(f"{thinking}</think>{''.join(pieces)}{answer}", "stop"))

    assert outcome.kind == ("complete" if answer else "empty")
    assert outcome.text.endswith(answer)
    assert "think" not in outcome.text


@settings(max_examples=50, deadline=None)
@given(pieces=BLANKS, text=st.sampled_from(["", "No."]))
def test_a_refusal_that_shows_nothing_is_a_refusal_without_words(
    pieces: list[str], text: str
) -> None:
    refused = AIMessage(content=text, additional_kwargs={"refusal": "".join(pieces) + "\u200b"})
    outcome = reply_outcome(refused)

    assert outcome.kind == "refused"
    assert outcome.text == text
    assert one_sentence(outcome.sentence())


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([*sorted(MARKED), "complete", "calls", None, "anything"]))
def test_every_marked_ending_but_empty_ends_a_structured_stage(outcome: str | None) -> None:
    # An empty structured answer leaves another rung to try; any other marked one is final.
    marked = NoAnswer("no usable answer", outcome=outcome, text="Half").marked

    if outcome in MARKED and outcome != "empty":
        assert marked is not None
        assert marked.kind == outcome
        assert one_sentence(marked.sentence("answer"))
    else:
        assert marked is None
