"""What one model call ended with, read from the reply alone: the one classifier every caller
of a model uses (the agent node, a profile's stages, structured calls).

A reply arrives as an ``AIMessage`` whose ``response_metadata["finish_reason"]`` holds the
provider's finish reason and whose ``additional_kwargs["refusal"]`` holds the text of a
refusal. From those, its content and its tool calls, :func:`reply_outcome` says which of these
it is, first match wins (the finish reasons of each kind are data: :data:`REFUSING`,
:data:`FILTERING`, :data:`TRUNCATING`):

- ``refused``: the provider sent a refusal; nothing of the reply is acted on.
- ``filtered``: the provider's content filter stopped it (``content_filter``); the text that
  came before is kept, marked, and no tool call of it runs.
- ``truncated``: it ran out of output tokens (``length``). Every tool call of such a reply is
  cut by definition (langchain parses a cut arguments string leniently into a partial object),
  so none runs; text that came is kept, marked.
- ``unfinished``: the finish reason is none of those this module knows to end a reply
  normally (:data:`ENDING`: an allowlist; a server's ``error``, ``abort``, ``eos``-like
  reasons it does not list, Gemini's ``MALFORMED_FUNCTION_CALL`` or ``OTHER``): whatever came
  is kept, marked, and no tool call of it runs.
- ``calls``: tool calls received whole (calls whose arguments are not JSON included: the
  broken-call answer handles those).
- ``complete``: visible text (``<think>`` blocks aside), no calls.
- ``empty``: none of the above: no text, no call.

A reply with no finish reason at all is read by what it holds (``calls``, ``complete`` or
``empty``): it reaches here only whole (a stream ended by ``[DONE]``, or a whole completion),
since every path's stream raises on a body cut before both ``[DONE]`` and a finish reason
(:mod:`agents.providers.stream_rules`, which says why real servers make this the rule).

Visible text is an allowlist too (:func:`visible_text`): a reply counts as written only when
its answer (its text content parts, after its thinking) holds at least one letter, digit,
punctuation mark or symbol. Blanks, zero-width and format characters (``U+200B``,
``U+2060``, a BOM), control characters and escape sequences (which the screen strips anyway),
lone combining marks, and content parts that are not text (a ``thinking`` or ``reasoning``
part) show nothing, so a reply of only those is ``empty``, not ``complete``.

The guarantee built on it: a turn ends *complete* (non-empty content, or tool calls that ran on
arguments received whole) or *marked* (failed, refused, filtered, truncated, cancelled) with one
sentence; never an unmarked empty or cut reply (a turn whose tool ran is complete even when
its last reply has nothing to add). A caller that gets a marked outcome raises
:class:`MarkedReply` (the turn ends there, the runtime stores the mark and the sentence) or, for
an internal stage with a way on (a structured answer), treats it as no answer.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Final, Literal

from langchain_core.messages import AIMessage, BaseMessage

from agents.errors import ProviderBadResponseError
from agents.providers.thinking import CLOSE_TAG, OPEN_TAG, split_thinking
from agents.providers.wire_normalizer import REFUSAL_KEY
from storage.printable import printable

Kind = Literal["complete", "calls", "truncated", "filtered", "refused", "unfinished", "empty"]
MARKED: Final[frozenset[str]] = frozenset(
    {"truncated", "filtered", "refused", "unfinished", "empty"}
)
"""The outcomes a turn may not end on unmarked (nor act on)."""
FINISH_KEY: Final = "finish_reason"
OUTCOME_META_KEY: Final = "outcome"
"""A marked reply record's ``meta`` key: its :data:`Kind`."""


TRUNCATING: Final[frozenset[str]] = frozenset({"length", "max_tokens", "model_length"})
"""Finish reasons that say the output limit cut the reply (OpenAI's ``length``; the names
some OpenAI-compatible proxies and servers pass through)."""
FILTERING: Final[frozenset[str]] = frozenset(
    {"content_filter", "safety", "recitation", "prohibited_content", "blocklist", "spii"}
)
"""Finish reasons that say a content filter stopped the reply (OpenAI's and Azure's
``content_filter``; Gemini's reasons where a proxy passes them through)."""
REFUSING: Final[frozenset[str]] = frozenset({"refusal"})
"""Finish reasons that say the model refused (its words are the reply's text)."""


ENDING: Final[frozenset[str]] = frozenset(
    {"stop", "tool_calls", "function_call", "end_turn", "stop_sequence", "tool_use", "eos"}
)
"""Finish reasons that say the reply ended normally: OpenAI's, and the names proxies pass
through from other APIs (Anthropic's ``end_turn`` / ``stop_sequence`` / ``tool_use``, the
``eos`` of text-generation servers). An allowlist: any other reason is ``unfinished``."""


KNOWN_REASONS: Final[tuple[str, ...]] = tuple(
    sorted({*ENDING, *TRUNCATING, *FILTERING, *REFUSING}, key=len)
)[::-1]
"""Every finish reason this module knows, longest first."""


def finish_reason_of(message: BaseMessage) -> str | None:
    """The reply's finish reason, lower-cased (``None`` when the server sent none, or an
    empty one); a reason that is not text (a number, an object) is named by its type, which
    no allowlist holds: ``unfinished``.

    langchain merges a streamed reply's metadata by concatenating strings, so a server that
    sends the finish reason on two chunks leaves ``"lengthlength"`` (or ``"tool_callsstop"``):
    a string made wholly of known reasons is read as the last of them. Any other string is
    the reason as sent (``"malformed_function_call"`` is not ``"function_call"``)."""
    reason = (message.response_metadata or {}).get(FINISH_KEY)
    if reason is None or reason == "":
        return None
    if not isinstance(reason, str):  # a number, an object, a list: no reason this module knows
        return f"<{type(reason).__name__}>"
    if not reason.strip():
        return None
    reason = reason.strip().lower()
    glued = _last_of_glued(reason)
    return glued if glued is not None else reason


def _last_of_glued(reason: str) -> str | None:
    """The last known reason of ``reason`` when it is known reasons glued end to end."""
    ends: dict[int, str] = {0: ""}  # prefix length -> the last reason of one way to make it
    for start in range(len(reason)):
        if start not in ends:
            continue
        for known in KNOWN_REASONS:
            if reason.startswith(known, start):
                ends[start + len(known)] = known
    return ends.get(len(reason)) or None


def refusal_of(message: BaseMessage) -> str:
    refusal = (message.additional_kwargs or {}).get(REFUSAL_KEY)
    return refusal.strip() if isinstance(refusal, str) else ""


TEXT_PARTS: Final[frozenset[str]] = frozenset({"text", "output_text"})
"""The content part types that hold the answer's text (an allowlist: a ``thinking``,
``reasoning`` or any other part is not the answer)."""
_SHOWN_CATEGORIES: Final = frozenset("LNPS")
"""Unicode major categories of characters that show: letters, numbers, punctuation,
symbols (not separators, marks alone, controls, formats, unassigned or private-use)."""


def shows_something(text: str) -> bool:
    """Whether ``text`` has at least one character a reader sees (:data:`_SHOWN_CATEGORIES`).

    It is read as the screen shows it (:func:`storage.printable.printable`: escape sequences
    and control characters gone), so an escape sequence alone shows nothing."""
    return any(unicodedata.category(char)[0] in _SHOWN_CATEGORIES for char in printable(text))


def visible_text(message: BaseMessage) -> str:
    """The reply's answer text: its text content parts joined, a leading ``<think>`` block
    left out, stripped; ``""`` when none of it shows (:func:`shows_something`).

    A ``</think>`` with no ``<think>`` before it ends thinking the server's chat template
    opened in the prompt (DeepSeek-R1 and Qwen served without a reasoning parser): only what
    follows it is the answer, so a reply of only such thinking is ``empty``."""
    content: Any = message.content
    if not isinstance(content, str):
        content = "".join(
            b
            if isinstance(b, str)
            else str(b.get("text") or "")
            if isinstance(b, dict) and b.get("type", "text") in TEXT_PARTS
            else ""
            for b in content or ()
        )
    text = split_thinking(content)[1]
    if CLOSE_TAG in text and OPEN_TAG not in text:
        text = text.rsplit(CLOSE_TAG, 1)[1]  # thinking whose <think> the prompt opened
    text = text.strip()
    return text if shows_something(text) else ""


@dataclass(frozen=True, slots=True)
class ReplyOutcome:
    kind: Kind
    text: str = ""
    """The visible text of the reply (the refusal's text for a refusal)."""
    cut_call: str = ""
    """The name of the tool call a truncated reply was writing ("" when none)."""

    @property
    def marked(self) -> bool:
        return self.kind in MARKED

    def sentence(self, what: str = "reply") -> str:
        """One sentence for the user: what happened to the ``what`` (``reply``, ``draft``)."""
        if self.kind == "refused":
            if self.text:
                return f"The model refused to write the {what}; its refusal is shown as it came."
            return f"The model refused to write the {what}; rephrase the request or choose another model."
        if self.kind == "filtered":
            if self.text:
                return (
                    f"The {what} was stopped by the provider's content filter, so it is "
                    "incomplete; rephrase the request or choose another model."
                )
            return (
                f"The {what} was stopped by the provider's content filter before any of it "
                "was written; rephrase the request or choose another model."
            )
        if self.kind == "truncated":
            if self.cut_call:
                return (
                    "The model ran out of output tokens while writing a call to "
                    f"{self.cut_call}; nothing was sent: retry, or allow the model more "
                    "output tokens."
                )
            cut = "is cut short" if self.text else "was not written"
            return (
                f"The model ran out of output tokens, so the {what} {cut}: retry, or allow "
                "the model more output tokens."
            )
        if self.kind == "unfinished":
            kept = "what came of it is kept as it came" if self.text else "none of it came"
            return (
                f"The provider ended the {what} without saying it was finished, so it may be "
                f"incomplete and {kept}: retry, or choose another model."
            )
        if self.kind == "empty":
            return f"The model returned an empty {what}: retry, or choose another model."
        return ""


def reply_outcome(message: BaseMessage) -> ReplyOutcome:
    """The outcome of one model call, from its final (merged) message."""
    refusal = refusal_of(message)
    text = visible_text(message)
    finish = finish_reason_of(message)
    if refusal or finish in REFUSING:
        return ReplyOutcome("refused", refusal if shows_something(refusal) else text)
    calls = message.tool_calls if isinstance(message, AIMessage) else []
    broken = message.invalid_tool_calls if isinstance(message, AIMessage) else []
    if finish in FILTERING:
        return ReplyOutcome("filtered", text)
    if finish in TRUNCATING:
        names = [c.get("name") or "" for c in [*calls, *broken]]
        cut = next((n for n in names if n), "a tool" if names else "")
        return ReplyOutcome("truncated", text, cut)
    if finish is not None and finish not in ENDING:
        return ReplyOutcome("unfinished", text)
    if calls or broken:
        return ReplyOutcome("calls", text)
    return ReplyOutcome("complete", text) if text else ReplyOutcome("empty")


class MarkedReply(ProviderBadResponseError):
    """A model call ended marked (:data:`MARKED`): the turn ends here, its reply stored with
    the mark (``meta["outcome"]``), the sentence (``meta["error"]``) and ``content`` (the
    refusal's text, or ``None``: the text streamed so far is kept)."""

    def __init__(self, outcome: ReplyOutcome, what: str = "reply") -> None:
        super().__init__(outcome.sentence(what))
        self.outcome = outcome
        self.code = f"reply_{outcome.kind}"
        self.content = outcome.text if outcome.kind == "refused" else None


def check_reply(message: BaseMessage, what: str = "reply") -> ReplyOutcome:
    """:func:`reply_outcome`, raising :class:`MarkedReply` when it is marked."""
    outcome = reply_outcome(message)
    if outcome.marked:
        raise MarkedReply(outcome, what)
    return outcome


def written_text(message: BaseMessage, what: str = "reply") -> str:
    """The text of a call that must answer in words (a summary, a draft, an answer written
    from sources: no tools offered), the one rule every such call reads its answer by.

    Its text is :func:`visible_text` (text parts only, thinking left out, stripped), never
    the content's raw form (a list of parts is not its ``str``). A reply that is marked, or
    that shows no text (tool calls alone, which no such call offered and none runs, count as
    no answer), raises :class:`MarkedReply`: an empty or unwritten answer never takes the
    place of a summary, a draft or an artifact."""
    outcome = check_reply(message, what)
    if not outcome.text:
        raise MarkedReply(ReplyOutcome("empty"), what)
    return outcome.text


__all__ = [
    "ENDING",
    "FILTERING",
    "MARKED",
    "OUTCOME_META_KEY",
    "REFUSAL_KEY",
    "REFUSING",
    "TRUNCATING",
    "MarkedReply",
    "ReplyOutcome",
    "check_reply",
    "finish_reason_of",
    "refusal_of",
    "reply_outcome",
    "visible_text",
    "written_text",
]
