"""How a record reads in the chat: the :class:`MessageItem` row the message view draws.

Replies and messages are Markdown and shown as they are. A tool record's content is program
output (numbered lines of ``read_file``, hits of ``search_code``, a test log): drawn as Markdown
it would be reflowed into one paragraph, so it is wrapped in a code fence instead, longer than
any backtick run inside it so the output can never close the fence early, and cut to
:data:`CHAT_LINES` lines with a "… N more lines" marker (the tool pane keeps the full preview).

A profile's traits may give a reply its own badge (``reply_badge``, read from the record meta)
and blocks under it (``reply_blocks``): :data:`REPLY_BLOCKS` maps each block kind the app knows
to the Markdown it draws; a kind it does not know draws nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from agents.profile import ProfileTraits
from storage.models import MessageRecord
from weaver_tui.core.branch_position import model_badge
from weaver_tui.core.message_item import MessageItem, as_status

CHAT_LINES = 20
"""Lines of a tool's output shown in the chat."""
LINE_CHARS = 400
"""Characters kept of one very long output line (a minified file would fill the screen)."""
NO_OUTPUT = "_(no output)_"

_BACKTICKS = re.compile(r"`{3,}")


def build_item(
    record: MessageRecord, version: int, count: int, traits: ProfileTraits | None = None
) -> MessageItem:
    """The row of ``record``, version ``version`` of ``count`` siblings (``traits``: those of
    the conversation's profile, for its reply badges and blocks)."""
    meta = record.meta
    content = record.content
    badge = ""
    if record.role == "assistant":
        if not content and record.tool_calls:
            content = tool_calls_text(record)
        if meta.get("provider"):
            badge = model_badge(meta["provider"], meta.get("model", ""))
        if traits is not None:
            badge = (traits.reply_badge(meta) if traits.reply_badge else None) or badge
            content = with_reply_blocks(content, meta, traits.reply_blocks)
        if meta.get("interrupted"):  # its process ended mid-reply (killed, or the machine)
            badge = f"{badge or record.role} · interrupted"
    elif record.role == "tool":
        badge = str(meta.get("name") or "")
        content = tool_output_markdown(content)
    elif record.role == "user":
        badge = str(meta.get("sender") or "")
        content = with_attachments(content, meta)
    marks = [check_mark(meta), OUTCOME_MARKS.get(str(meta.get("outcome"))), badge]
    badge = context_marks(meta, " · ".join(filter(None, marks)))
    visibility = meta.get("visibility")
    return MessageItem(
        id=record.id,
        role=record.role,
        content=content,
        status=as_status(record.status.value),
        version=version,
        sibling_count=count,
        badge=badge,
        visibility="" if visibility in (None, "shared") else f"private → {visibility}",
        error=str(meta.get("error") or ""),
        reasoning=str(meta.get("reasoning") or "") if record.role == "assistant" else "",
    )


OUTCOME_MARKS = {
    "refused": "⊘ refused",
    "filtered": "⊘ filtered",
    "truncated": "✂ truncated",
    "unfinished": "✂ unfinished",
    "empty": "∅ empty reply",
}
"""How a reply that ended marked (``meta["outcome"]``, written by the runtime) is badged; its
sentence shows under it as a failure's does."""

CHECK_MARKS = {
    "draft": "✎ draft",
    "rejected": "✎ draft · rejected, retrying",
    "checked": "✓ checked",
    "unchecked": "unchecked",
}
"""How a reply streamed as a draft stands (``meta["check"]``, written by the runtime)."""


def check_mark(meta: Mapping[str, Any]) -> str:
    """``✎ draft`` while a draft streams, ``✓ checked`` or ``unchecked: <why>`` once settled."""
    check = meta.get("check")
    if not isinstance(check, Mapping):
        return ""
    state = str(check.get("state") or "")
    mark = CHECK_MARKS.get(state, "")
    note = str(check.get("note") or "")
    return f"{mark}: {note}" if mark and note and state == "unchecked" else mark


def context_marks(meta: Mapping[str, Any], badge: str) -> str:
    """The badge with how the message stands in the model's context: pinned, left out, or a
    summary in place of it and everything above."""
    marks = {"pinned": "📌 pinned", "excluded": "⊘ left out"}
    mark = marks.get(str(meta.get("context") or ""), "")
    if meta.get("summary"):
        mark = " ".join(filter(None, [mark, "▤ summarised above"]))
    return " · ".join(filter(None, [mark, badge]))


def with_attachments(content: str, meta: Mapping[str, Any]) -> str:
    """A user message with one folded line per attached file (name and size, not the text)."""
    from agents.attachments import attachments_of, describe

    lines = [f"📎 `{describe(a)}`" for a in attachments_of(meta)]
    return "\n\n".join([content, "  \n".join(lines)]) if lines else content


def sources_block(meta: Mapping[str, Any]) -> str:
    """``meta["sources"]`` (``{"title", "where"}`` each) as a numbered Markdown list."""
    sources = [s for s in meta.get("sources") or () if isinstance(s, Mapping)]
    lines = [
        f"{n}. {s.get('title') or s.get('where') or 'source'}"
        + (f" — `{s['where']}`" if s.get("where") and s.get("title") else "")
        for n, s in enumerate(sources, 1)
    ]
    return "**Sources**\n\n" + "\n".join(lines) if lines else ""


def artifacts_block(meta: Mapping[str, Any]) -> str:
    """``meta["artifacts"]`` (``{"name", "language", "text"}`` each) as fenced blocks."""
    blocks = []
    for artifact in meta.get("artifacts") or ():
        if not isinstance(artifact, Mapping):
            continue
        text = str(artifact.get("text") or "")
        longest = max((len(run) for run in _BACKTICKS.findall(text)), default=2)
        fence = "`" * max(3, longest + 1)
        language = str(artifact.get("language") or "")
        name = str(artifact.get("name") or "artifact")
        blocks.append(f"**{name}**\n\n{fence}{language}\n{text}\n{fence}")
    return "\n\n".join(blocks)


REPLY_BLOCKS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "sources": sources_block,
    "artifacts": artifacts_block,
}
"""Reply-block kind (a profile's ``reply_blocks``) -> the Markdown drawn under the reply."""


def with_reply_blocks(content: str, meta: Mapping[str, Any], kinds: tuple[str, ...]) -> str:
    """``content`` followed by the blocks of ``kinds`` that ``meta`` has something for."""
    blocks = [REPLY_BLOCKS[kind](meta) for kind in kinds if kind in REPLY_BLOCKS]
    return "\n\n".join([content, *(b for b in blocks if b)]) if any(blocks) else content


def tool_calls_text(record: MessageRecord) -> str:
    """One line naming the tools an assistant record called (the tool pane has the details)."""
    names = [f"`{call.get('name', 'tool')}`" for call in record.tool_calls]
    return "Calling " + ", ".join(names) if names else ""


def tool_output_markdown(output: str, limit: int = CHAT_LINES) -> str:
    """``output`` as a fenced, unhighlighted block of at most ``limit`` lines (plus a marker)."""
    text = output.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    if not text.strip():
        return NO_OUTPUT
    lines = text.split("\n")
    shown = [
        line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…" for line in lines[:limit]
    ]
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=2)
    fence = "`" * max(3, longest + 1)
    block = f"{fence}text\n" + "\n".join(shown) + f"\n{fence}"
    hidden = len(lines) - len(shown)
    if hidden > 0:
        block += f"\n\n_… {hidden} more line{'s' if hidden != 1 else ''}_"
    return block
