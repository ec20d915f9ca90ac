"""A profile's own offline rules: the runtime hands them to the offline model for its turns."""

from __future__ import annotations

import dataclasses

from langchain_core.messages import HumanMessage

from agents.offline import OfflineChatModel
from agents.offline.conversation import Conversation
from agents.offline.reply import Reply
from agents.profiles import get_profile
from agents.providers import ChatModelHandle


def _shout(conv: Conversation) -> Reply | None:
    return Reply(text=f"RULE SAYS {conv.user_text.upper()}")


def test_profile_rules_speak_before_the_generic_ones():
    model = OfflineChatModel().with_rules([_shout])
    reply = model.invoke([HumanMessage(content="hello")])
    assert str(reply.content).startswith("RULE SAYS")
    assert not str(OfflineChatModel().invoke([HumanMessage(content="hello")]).content).startswith(
        "RULE SAYS"
    )


def test_the_handle_gives_a_profile_its_rules_and_leaves_others_alone():
    handle = ChatModelHandle(
        model=OfflineChatModel(), provider="offline", model_name="offline", label="offline"
    )
    base = get_profile("mediator")
    with_rules = dataclasses.replace(base, offline_rules=(_shout,))
    assert handle.for_profile(with_rules).rules == (_shout,)  # type: ignore[attr-defined]
    assert handle.for_profile(dataclasses.replace(base, offline_rules=())) is handle.model
