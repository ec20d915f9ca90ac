"""What the model reads of a branch, and how the user steers it.

By default a turn sends the last ``limit`` records of the path. The user can change that per
message and per branch, without touching the tree:

- a message **pinned** (``meta["context"] == "pinned"``) is sent even when it is older than
  the window, or summarised;
- a message **left out** (``meta["context"] == "excluded"``) is never sent;
- **a summary** stored on a record (``meta["summary"]``) stands in for that record and
  everything above it on the path: the model reads the summary, then what follows.

:func:`context_records` chooses the records (a pure function of the path);
:func:`estimate_tokens` counts what a turn will send, so the app can show it against the
model's context window (:func:`context_window_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.models import MessageRecord
from storage.tree_index import trim_context

PINNED = "pinned"
EXCLUDED = "excluded"
PINNED_KEY = "pinned_ids"
"""``TurnContext.extra[PINNED_KEY]``: ids of the path's pinned records (kept when trimming)."""
SUMMARY_HEADING = "Summary of the earlier conversation on this branch:"
SUMMARY_PROMPT = (
    "You summarise a conversation for your own later use. Write a short summary (at most ten "
    "lines) of what was asked, decided and answered: names, numbers, file names and open "
    "questions. No preamble."
)
SUMMARY_KEEPS = 6
"""Records of the path that "summarise older turns" leaves as they are (the latest ones)."""

CONTEXT_WINDOWS: dict[str, int] = {
    "gpt-4.1": 1_047_576,
    "gpt-4.1-mini": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "gpt-5.1": 400_000,
    "kimi-k2-turbo-preview": 262_144,
    "kimi-k2-0905-preview": 262_144,
    "moonshot-v1-32k": 32_768,
    "deepseek-chat": 131_072,
    "deepseek-reasoner": 131_072,
    "qwen-plus": 131_072,
    "qwen-max": 32_768,
    "qwen-turbo": 1_000_000,
    "qwen3-coder-plus": 1_000_000,
    "llama3.2": 131_072,
    "offline": 32_768,
}
"""Context windows (tokens) of the models the presets suggest; others are asked of the server
(``max_model_len`` in its model list) or shown without a limit."""


def context_window_of(model: str) -> int | None:
    return CONTEXT_WINDOWS.get(model)


def served_context_window(models_answer: Any, model: str) -> int | None:
    """The context window an OpenAI-compatible server's ``/models`` answer gives ``model``
    (vLLM's ``max_model_len``, others' ``context_length`` / ``context_window``)."""
    data = models_answer.get("data") if isinstance(models_answer, dict) else None
    for entry in data or ():
        if isinstance(entry, dict) and entry.get("id") == model:
            for key in ("max_model_len", "context_length", "context_window"):
                value = entry.get(key)
                if isinstance(value, int) and value > 0:
                    return value
    return None


def context_records(path: Sequence[MessageRecord], limit: int) -> tuple[str, list[MessageRecord]]:
    """(summary, records) a turn sends for ``path`` (root first): the latest summary on the
    path (``""`` if none), then the window of ``limit`` records after it, with the pinned
    ones above the window (summarised or not) added and the left-out ones dropped."""
    start, summary = 0, ""
    for i, record in enumerate(path):
        text = record.meta.get("summary")
        if isinstance(text, str) and text.strip():
            start, summary = i + 1, text.strip()
    usable = [r for r in path[start:] if r.role != "system"]
    window = trim_context(path[start:], limit)  # no tool result without its call at the top
    first = usable.index(window[0]) if window else len(usable)
    older = [r for r in path[:start] if r.role != "system"] + usable[:first]
    chosen = [r for r in older if r.meta.get("context") == PINNED] + window
    return summary, [r for r in chosen if r.meta.get("context") != EXCLUDED]


def pinned_ids(path: Sequence[MessageRecord]) -> frozenset[str]:
    """The ids of the records on ``path`` the user pinned."""
    return frozenset(r.id for r in path if r.meta.get("context") == PINNED)


def estimate_tokens(system_prompt: str, summary: str, records: Sequence[MessageRecord]) -> int:
    """About how many tokens a turn sends: the system prompt, the summary and the records."""
    from langchain_core.messages import HumanMessage, SystemMessage
    from langchain_core.messages.utils import count_tokens_approximately

    messages: list[Any] = [SystemMessage(system_prompt)]
    if summary:
        messages.append(SystemMessage(summary))
    messages += [HumanMessage(r.content) for r in records if r.content]
    return int(count_tokens_approximately(messages))


def said_by(record: MessageRecord) -> str:
    """Who said ``record`` as a summary's line starts: the sender, then the private mark
    the model reads before a private message (:mod:`agents.shared_space.marks`), so what was
    said privately stays marked in the summary that takes its place."""
    from agents.shared_space.marks import private_mark, private_to_sender

    sender = record.meta.get("sender")
    who = str(sender or record.role)
    if record.role == "user" and sender and private_to_sender(record.meta):
        who += f" {private_mark(str(sender))}"
    return who


def _words_of(record: MessageRecord, text: str) -> str:
    """``text`` of ``record``; a participant's words with no mark-like token of their own."""
    from agents.shared_space.marks import defanged

    return defanged(text) if record.role == "user" and record.meta.get("sender") else text


PRIVATE_SUMMARY_NOTE = (
    " Lines marked [private: NAME → mediator] were said privately: keep that mark before "
    "anything of theirs you keep, and never merge it with what was said to everyone."
)
"""Added to :data:`SUMMARY_PROMPT` when the transcript holds a private message."""


def transcript(records: Sequence[MessageRecord]) -> str:
    """The records as plain lines for the summariser (tool output cut short); a private
    message's line carries its mark (:func:`said_by`)."""
    lines = []
    for record in records:
        if record.role == "system" or not record.content.strip():
            continue
        text = record.content if record.role != "tool" else record.content[:500]
        lines.append(f"{said_by(record)}: {_words_of(record, text).strip()}")
    return "\n".join(lines)


def older_records(path: Sequence[MessageRecord]) -> list[MessageRecord]:
    """The records "summarise older turns" covers: all but the latest :data:`SUMMARY_KEEPS`
    of the path (an earlier summary's span included: the new summary restates it)."""
    usable = [r for r in path if r.role != "system"]
    return usable[:-SUMMARY_KEEPS] if len(usable) > SUMMARY_KEEPS else []


EXTRACT_HEADING = "Extract of the earlier messages (their first lines; no model summarised them):"
EXTRACT_LINE_CHARS = 200
EXTRACT_LINES = 60


def extract(earlier: str, records: Sequence[MessageRecord]) -> str:
    """An extractive summary: an earlier summary as it was, then the first line of each
    message (cut at :data:`EXTRACT_LINE_CHARS`), the latest :data:`EXTRACT_LINES` of them."""
    lines = []
    for record in records:
        if record.role in ("system", "tool") or not record.content.strip():
            continue
        first = _words_of(record, record.content).strip().splitlines()[0][:EXTRACT_LINE_CHARS]
        lines.append(f"- {said_by(record)}: {first}")
    dropped = len(lines) - EXTRACT_LINES
    lines = lines[-EXTRACT_LINES:]
    if dropped > 0:
        lines.insert(0, f"- ({dropped} earlier messages not listed)")
    head = f"{earlier}\n\n{EXTRACT_HEADING}" if earlier else EXTRACT_HEADING
    return "\n".join([head, *lines])


def needs_auto_summary(
    path: Sequence[MessageRecord], system_prompt: str, limit: int, window: int, share: float
) -> int | None:
    """The tokens the next turn on ``path`` would send when that passes ``share`` of
    ``window`` and summarising older turns would change something; else ``None``."""
    summary, records = context_records(path, limit)
    tokens = estimate_tokens(system_prompt, summary, records)
    if tokens < window * share:
        return None
    older = older_records(path)
    if not older or older[-1].meta.get("summary"):
        return None  # nothing older to summarise, or summarised up to there already
    return tokens
