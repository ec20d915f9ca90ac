"""How the offline model decides: ask each tool family's rules in turn, then keep the reply honest.

A rule looks at the :class:`~agents.offline.conversation.Conversation` and returns a
:class:`Reply` (text, tool calls, or both) or ``None`` when the conversation is not its
business. The running profile brings its own rules (``Profile.offline_rules``, usually a
:class:`~agents.offline.family.RuleFamily` for its tools), asked first; the generic families
here are keyed on tool *names*, and the rule for unknown tools leaves alone the tools a
profile's family claims.
This module then enforces what a provider would: no calls to tools that are not bound, none
when ``tool_choice="none"``, a call when one is required, and never the same call twice in
a turn.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from functools import partial

from agents.context import SUMMARY_PROMPT
from agents.offline.conversation import Conversation, call_signature
from agents.offline.family import Rule, claimed_tools
from agents.offline.reply import PlannedCall, Reply
from agents.offline.rules import chat, knowledge, structured, unknown_tools
from agents.runtime.continuation import CONTINUE_PROMPT

logger = logging.getLogger(__name__)


IMAGES_UNREAD = (
    "I'm the offline model and cannot see images. Switch to a model that reads them (Ctrl+L, "
    "e.g. an OpenAI gpt-4.1 model), or describe what the image shows."
)

FAMILIES: tuple[Rule, ...] = (knowledge.decide,)
"""Asked in this order, after the profile's rules and before the rule for unknown tools; the
first that returns a reply speaks."""


def decide(conv: Conversation, profile_rules: Sequence[Rule] = ()) -> Reply:
    """The reply for ``conv``: the first rule that speaks (the running profile's own rules,
    then the generic families), else a conversational answer."""
    if conv.images and not conv.results:
        return Reply(text=IMAGES_UNREAD)
    if conv.user_text == CONTINUE_PROMPT:
        return chat.continue_reply(conv)
    if conv.system.startswith(SUMMARY_PROMPT):
        return chat.summarise_transcript(conv)
    unknown = partial(unknown_tools.decide, claimed=claimed_tools(profile_rules))
    families: tuple[Rule, ...] = (*profile_rules, *FAMILIES, unknown)
    forced = conv.tool_choice if conv.tool_choice not in (None, "none", "any") else None
    if forced is not None and forced in conv.tools:
        return _forced(conv, forced, families)

    reply = None
    for family in families:
        reply = family(conv)
        if reply is not None:
            break
    if reply is None:
        reply = chat.decide(conv)

    calls = _allowed_calls(conv, reply.calls)
    if len(calls) != len(reply.calls) and not calls:
        # The rule wanted tools it may not use: answer as if no tools were bound.
        logger.debug("offline model: planned calls dropped, answering without tools")
        return decide(dataclasses.replace(conv, tools={}, tool_choice=None), profile_rules)
    if not calls and conv.tool_choice == "any" and conv.tools:
        call = structured.best_call(conv)
        return Reply(text="", calls=(call,))
    return Reply(text=reply.text, calls=calls)


def _forced(conv: Conversation, name: str, families: Sequence[Rule]) -> Reply:
    """``tool_choice`` names one tool (as ``with_structured_output`` does): call exactly it."""
    for family in families:
        reply = family(conv)
        if reply is not None:
            wanted = tuple(c for c in reply.calls if c.name == name)
            if wanted:
                return Reply(text="", calls=wanted[:1])
    return Reply(text="", calls=(structured.fill_call(conv, conv.tools[name]),))


def _allowed_calls(conv: Conversation, calls: tuple[PlannedCall, ...]) -> tuple[PlannedCall, ...]:
    if not conv.may_call_tools:
        return ()
    seen = set(conv.calls_made)
    kept: list[PlannedCall] = []
    for call in calls:
        signature = call_signature(call.name, call.args)
        if call.name in conv.tools and signature not in seen:
            seen.add(signature)
            kept.append(call)
    return tuple(kept)
