"""The conversation path as LangChain messages: what the model sees of the tree.

The context window (the last N records on the path to the new user message)
becomes Human/AI/Tool messages. Tool calls stay paired with their results: an assistant tool
call whose results are not in the window (a cancelled round) is sent without that call, and a
tool result whose call is not in the window is dropped, since providers reject either half
alone. A tool-calling reply keeps its reasoning beside it, for the servers that need it back
with the calls. Cancelled and failed replies are included as what was said; empty ones are skipped.
Who said a user message travels as the message's ``name`` (:mod:`agents.speaker`); whether it
was private to its sender, as a mark on its first line (:mod:`agents.shared_space.marks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage

from agents.attachments import attachments_of, content_parts
from agents.context import SUMMARY_HEADING, context_records
from agents.providers.thinking import REASONING_KEY
from agents.providers.wire_normalizer import reasoning_kwargs
from agents.quoted_text import quoted
from agents.shared_space.marks import defanged, marked, private_to_sender
from agents.speaker import message_name
from storage.models import MessageRecord
from storage.store import ConversationStore


def user_message(record: MessageRecord) -> HumanMessage:
    """A user record as the model reads it: its words (and attached files), and who said
    them as the ``name``; a message private to its sender starts with the private mark
    (:mod:`agents.shared_space.marks`)."""
    return user_words(record.content, record.meta, record.id)


def user_words(text: str, meta: Mapping[str, Any], message_id: str | None = None) -> HumanMessage:
    """The user's ``text`` with the record ``meta`` it is (or will be) stored with, as the
    model reads it (see :func:`user_message`)."""
    raw_sender = meta.get("sender")
    sender = str(raw_sender) if raw_sender else None
    name = message_name(sender) if sender else None
    if sender:  # a participant's words: no mark but the ones written here
        text = marked(text, sender) if private_to_sender(meta) else defanged(text)
    attachments = attachments_of(meta)
    if attachments:
        parts: list[str | dict[str, Any]] = list(content_parts(text, attachments))
        return HumanMessage(content=parts, name=name, id=message_id)
    return HumanMessage(content=text, name=name, id=message_id)


def _broken_call(call: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call["id"],
        "name": call["name"],
        "args": str(call.get("broken_args") or ""),
        "error": None,
        "type": "invalid_tool_call",
    }


def _tool_call(call: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call["id"],
        "name": call["name"],
        "args": call.get("args") or {},
        "type": "tool_call",
    }


def _reasoning_kept(record: MessageRecord, calls: list[dict[str, Any]]) -> dict[str, Any]:
    """A tool-calling reply's reasoning, which a thinking model's server needs back with its
    calls (the model sends it only to those: ``agents.providers.openai_reasoning``); none otherwise."""
    if not calls:
        return {}
    kept = reasoning_kwargs(record.meta)
    reasoning = record.meta.get("reasoning")
    if isinstance(reasoning, str):
        kept[REASONING_KEY] = reasoning
    return kept


def records_to_messages(records: Sequence[MessageRecord]) -> list[AnyMessage]:
    """Convert path records (root first) to messages, keeping tool calls whole."""
    answered = {r.tool_call_id for r in records if r.role == "tool" and r.tool_call_id}
    open_calls: set[str] = set()
    messages: list[AnyMessage] = []
    for record in records:
        if record.role == "user":
            messages.append(user_message(record))
        elif record.role == "assistant":
            kept = [c for c in record.tool_calls if c.get("id") in answered]
            calls = [_tool_call(c) for c in kept if "broken_args" not in c]
            broken = [_broken_call(c) for c in kept if "broken_args" in c]
            if not record.content and not kept:
                continue
            open_calls.update(c["id"] for c in kept)
            messages.append(
                AIMessage(
                    content=record.content,
                    tool_calls=calls,
                    invalid_tool_calls=broken,
                    id=record.id,
                    additional_kwargs=_reasoning_kept(record, kept),
                )
            )
        elif record.role == "tool":
            call_id = record.tool_call_id
            if call_id not in open_calls:
                continue
            messages.append(
                ToolMessage(
                    content=record.content,
                    tool_call_id=call_id,
                    name=record.meta.get("name"),
                    status="error" if record.meta.get("error") else "success",
                    id=record.id,
                )
            )
    return messages


def turn_messages(
    store: ConversationStore, user_message_id: str, limit: int = 20
) -> list[AnyMessage]:
    """The messages the model gets for a turn answering ``user_message_id``: the branch's
    summary (if one was made), then its window with the user's pins and omissions (see
    :mod:`agents.context`)."""
    summary, records = context_records(store.path_to_root(user_message_id), limit)
    messages = records_to_messages(records)
    if summary:
        # a model wrote it from the conversation: quoted, it cannot speak with the app's headings
        return [SystemMessage(content=f"{SUMMARY_HEADING}\n{quoted(summary)}"), *messages]
    return messages
