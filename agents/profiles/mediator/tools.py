"""The mediator's two ways to speak; the docstrings below are the model's manual.

Each tool checks its arguments against the space (an unknown recipient is an error result
the model reads and can correct) and returns a short confirmation for the model plus, as the
tool message's artifact, the delivery facts the record keeps: ``record_meta`` with
``visibility``, ``recipient``, ``delivered_by`` and ``delivered_content``. The delivered
words are the call's arguments, stored with the assistant's tool-call record, so every view
can be rebuilt from the tree (see :mod:`space`). ``post_to_shared`` holds a post that repeats
a participant's private words (:mod:`agents.shared_space.guard`): the model reads why, as an
error result, and the tool pane shows the held call.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.tools import BaseTool, ToolException, tool
from langgraph.prebuilt import ToolRuntime

from agents.profile import TurnContext
from agents.shared_space import DEFAULT_PARTICIPANTS
from agents.shared_space.actions import POST_TO_SHARED, REPLY_PRIVATELY
from agents.shared_space.events import SHARED
from agents.shared_space.guard import held_for
from agents.shared_space.space import (
    MEDIATOR,
    canonical_participant,
    names_in_words,
    same_name,
    view_for,
)
from storage.models import MessageRecord
from storage.store import NotFoundError

logger = logging.getLogger(__name__)


def _participants(runtime: ToolRuntime[Any]) -> tuple[str, ...]:
    return tuple(runtime.context.participants) or DEFAULT_PARTICIPANTS


def _branch(runtime: ToolRuntime[Any]) -> list[MessageRecord]:
    """The branch this turn answers, root first (empty when its message is not stored)."""
    context: TurnContext = runtime.context
    try:
        return context.store.path_to_root(context.user_message_id)
    except NotFoundError:
        logger.warning("turn message not stored", extra={"id": context.user_message_id})
        return []


def _delivered_before(runtime: ToolRuntime[Any], path: list[MessageRecord], to: str) -> str:
    """What the mediator already delivered to ``to`` (a participant, or the shared channel):
    on the branch, then earlier in this turn (calls that were delivered, not held)."""
    said = [
        line.content
        for line in view_for(path, None)
        if line.author == MEDIATOR and line.kind == "delivered" and same_name(line.visibility, to)
    ]
    messages = (getattr(runtime, "state", None) or {}).get("messages", [])
    calls = {
        call.get("id"): call
        for message in messages
        for call in getattr(message, "tool_calls", None) or []
    }
    delivered = [
        getattr(message, "tool_call_id", None)
        for message in messages
        if getattr(message, "type", "") == "tool" and getattr(message, "status", "") != "error"
    ]
    this_call = getattr(runtime, "tool_call_id", None)
    siblings = next(
        (
            [call.get("id") for call in message.tool_calls]
            for message in reversed(messages)
            if any(call.get("id") == this_call for call in getattr(message, "tool_calls", []))
        ),
        [],
    )
    # calls made beside this one in the same answer, before it, count as delivered
    earlier_siblings = siblings[: siblings.index(this_call)] if this_call in siblings else []
    for call_id in dict.fromkeys([*delivered, *earlier_siblings]):
        call = calls.get(call_id) or {}
        args = call.get("args") or {}
        to_shared = call.get("name") == POST_TO_SHARED and to == SHARED
        if to_shared or (
            call.get("name") == REPLY_PRIVATELY and same_name(args.get("recipient"), to)
        ):
            said.append(str(args.get("content", "")))
    return "\n".join(said)


def _held(text: str, runtime: ToolRuntime[Any], to: str) -> list[str]:
    """Whose private words ``text`` would show to ``to`` (alone or with what ``to`` already
    read from the mediator)."""
    path = _branch(runtime)
    before = _delivered_before(runtime, path, to)
    return held_for(text, path, before=before, reader=None if to == SHARED else to)


def _checked_content(content: str) -> str:
    text = content.strip()
    if not text:
        raise ToolException("The message is empty; write what you want to say.")
    return text


@tool(REPLY_PRIVATELY, response_format="content_and_artifact")
def reply_privately(
    recipient: str, content: str, runtime: ToolRuntime[Any]
) -> tuple[str, dict[str, Any]]:
    """Send a private message to ONE participant; nobody else in the space can read it.

    recipient: the participant's name exactly as listed in the space (e.g. "Alex").
    content: the message, addressed to that person.
    Use it to answer what someone told you privately, to check in with one person, or to
    coach them; never repeat one person's private words to another.
    """
    people = _participants(runtime)
    name = canonical_participant(recipient, people)
    if name is None:
        hint = (
            " Use post_to_shared to address everyone."
            if recipient.strip().lower() in (SHARED, "all", "everyone", "both")
            else ""
        )
        raise ToolException(
            f"'{recipient}' is not a participant of this space; the participants are "
            f"{names_in_words(people)}. Use one of those names exactly.{hint}"
        )
    text = _checked_content(content)
    whose = _held(text, runtime, name)
    if whose:
        logger.warning("private reply held", extra={"repeated": whose, "chars": len(text)})
        raise ToolException(
            f"Private reply held: it repeated {names_in_words(whose)}'s private words to "
            f"{name}, so {name} was not shown it. Answer {name} in your own words, without "
            "quoting what anyone else told you privately, then call reply_privately again."
        )
    logger.info("reply_privately to %s", name, extra={"recipient": name, "chars": len(text)})
    meta = {
        "visibility": name,
        "recipient": name,
        "delivered_by": REPLY_PRIVATELY,
        "delivered_content": text,
    }
    return f"Delivered privately to {name}; only {name} can read it.", {"record_meta": meta}


@tool(POST_TO_SHARED, response_format="content_and_artifact")
def post_to_shared(content: str, runtime: ToolRuntime[Any]) -> tuple[str, dict[str, Any]]:
    """Post a message to the shared space, where EVERY participant reads it.

    content: the message for everyone.
    Use it for neutral summaries, agreements, proposals and questions for all; it must not
    reveal anything a participant told you privately unless they asked you to share it.
    A post that repeats someone's private words is held, not posted: rephrase and post again.
    """
    text = _checked_content(content)
    people = _participants(runtime)
    whose = _held(text, runtime, SHARED)
    if whose:
        logger.warning("shared post held", extra={"repeated": whose, "chars": len(text)})
        raise ToolException(
            f"Shared post held: it repeated {names_in_words(whose)}'s private words, so "
            "nobody was shown it. Rephrase it in your own neutral words, without quoting what "
            "anyone told you privately, then call post_to_shared again."
        )
    logger.info("post_to_shared", extra={"chars": len(text)})
    meta = {
        "visibility": SHARED,
        "recipient": SHARED,
        "delivered_by": POST_TO_SHARED,
        "delivered_content": text,
    }
    return f"Posted to the shared space; {names_in_words(people)} can read it.", {
        "record_meta": meta
    }


TOOLS: list[BaseTool] = [reply_privately, post_to_shared]
for _tool in TOOLS:
    _tool.handle_tool_error = True


def make_tools() -> list[BaseTool]:
    """The mediator's tools: ``reply_privately`` and ``post_to_shared``."""
    return list(TOOLS)
