"""Where a closing reply goes: a mediator answer that used no delivery tool is a delivery too.

A reply that calls no delivery tool in a turn that delivered nothing goes back privately to
whoever spoke (as :func:`agents.shared_space.space.view_for` shows it), so a model that forgets
its tools never leaves a participant unanswered. Its record says so (``visibility``), so the
store's viewer filter shows it to the speaker and nobody else.

The guarantee, for every way the mediator's words reach a participant: the words pass the one
guard of :func:`agents.profiles.mediator.tool_checks.held_words` first, with what that reader
already read from the mediator. A delivery tool's call that repeats another participant's
private words (or an unshared critique) is held and the model told to rephrase; a closing
reply that does is never addressed to anyone: the turn ends marked with one sentence
(:class:`HeldReply`, which names nobody, since it reaches the speaker's seat), its words stored
for the host alone (no ``visibility``, so no seat reads them).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from agents.errors import WeaverError
from agents.graph.tool_node import message_text
from agents.profile import TurnContext
from agents.profiles.mediator.tool_checks import held_words
from agents.shared_space.space import DELIVERY_TOOLS

logger = logging.getLogger(__name__)


class HeldReply(WeaverError):
    """A closing reply repeated another participant's private words: nobody is shown it."""

    code = "reply_held"


def delivered_this_turn(messages: Sequence[AnyMessage]) -> bool:
    """Whether a delivery tool succeeded since the participant's message."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return False
        if (
            isinstance(message, ToolMessage)
            and message.name in DELIVERY_TOOLS
            and message.status != "error"
        ):
            return True
    return False


def addressed_reply(response: Any, messages: Sequence[AnyMessage], context: TurnContext) -> Any:
    """``response`` with its audience (the speaker) when it is a closing reply to address;
    raises :class:`HeldReply` when its words would show the speaker someone else's private
    words."""
    sender = context.sender
    if (
        not isinstance(response, AIMessage)
        or response.tool_calls
        or not sender
        or not (text := message_text(response.content)).strip()
        or delivered_this_turn(messages)
    ):
        return response
    whose = held_words(text, context, messages, sender)
    if whose:
        logger.warning("closing reply held", extra={"repeated": whose, "chars": len(text)})
        # the sentence reaches the speaker's seat: it names nobody (the log names whose words)
        raise HeldReply(
            "The mediator's reply was withheld: it repeated words someone else said privately. "
            "Send your message again for a new answer."
        )
    kept = dict(response.additional_kwargs.get("record_meta") or {})
    kwargs = {**response.additional_kwargs, "record_meta": {**kept, "visibility": sender}}
    return response.model_copy(update={"additional_kwargs": kwargs})
