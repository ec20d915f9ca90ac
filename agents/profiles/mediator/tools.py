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

from agents.profiles.mediator.statement_tools import STATEMENT_TOOLS
from agents.profiles.mediator.tool_checks import (
    checked_content,
    held,
    participants,
    shared_words,
)
from agents.shared_space.actions import POST_TO_SHARED, REPLY_PRIVATELY
from agents.shared_space.events import SHARED
from agents.shared_space.space import canonical_participant, names_in_words

logger = logging.getLogger(__name__)


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
    people = participants(runtime)
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
    text = checked_content(content)
    whose = held(text, runtime, name)
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
def post_to_shared(
    content: str, runtime: ToolRuntime[Any], draws_on: list[str] | None = None
) -> tuple[str, dict[str, Any]]:
    """Post a message to the shared space, where EVERY participant reads it.

    content: the message for everyone.
    draws_on: the participants whose private messages to you this post uses, even in your own
    words (e.g. ["Sam"]); each of them is asked at their seat first, and nothing is posted
    until they allow it. Leave it empty when the post uses nothing said to you privately.
    Use it for neutral summaries, agreements, proposals and questions for all.
    A post that repeats someone's private words is held until they allow it.
    """
    text = shared_words(checked_content(content), runtime, POST_TO_SHARED, draws_on or [])
    people = participants(runtime)
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
    """The mediator's tools: ``reply_privately``, ``post_to_shared`` and the statement tools
    (``propose_statement``, ``revise_statement``)."""
    return [*TOOLS, *STATEMENT_TOOLS]
