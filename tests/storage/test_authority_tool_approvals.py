"""Tools answered "always" count only when the user answered here (see
:data:`agents.graph.approval.APPROVED_MAC_KEY`).

The class, on every backend: a tool list x {answered here, signed with another key, a tool
added or removed, carried to another conversation, without a MAC, a MAC of another shape}
-> only the list answered here approves anything.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.graph.approval import APPROVED_KEY, APPROVED_MAC_KEY, approval_meta, approved_tools
from storage.authority import TOOL_APPROVAL, sign
from storage.store import ConversationStore

VARIANTS = ("here", "other_key", "added", "removed", "moved", "no_mac", "odd_mac")
_TOOL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_/", min_size=1, max_size=12)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    variant=st.sampled_from(VARIANTS),
    tools=st.lists(_TOOL, min_size=1, max_size=4, unique=True),
    extra=_TOOL,
    odd=st.one_of(st.integers(), st.text(max_size=70), st.lists(st.integers(), max_size=2)),
)
def test_only_tools_approved_here_are_approved(
    backend: ConversationStore, variant: str, tools: list[str], extra: str, odd: object
) -> None:
    conversation = backend.create_conversation("ide-helper")
    other = backend.create_conversation("ide-helper")
    meta = approval_meta(conversation.id, tools)
    target = conversation.id
    if variant == "other_key":
        names = sorted(tools)
        meta[APPROVED_MAC_KEY] = sign(TOOL_APPROVAL, (conversation.id, *names), os.urandom(32))
    elif variant == "added":
        meta[APPROVED_KEY] = sorted({*tools, extra + "/x"})
    elif variant == "removed":
        meta[APPROVED_KEY] = sorted(tools)[1:] or ["none/x"]
    elif variant == "moved":
        target = other.id
    elif variant == "no_mac":
        del meta[APPROVED_MAC_KEY]
    elif variant == "odd_mac":
        meta[APPROVED_MAC_KEY] = odd
    backend.update_conversation_meta(target, **meta)
    approved = approved_tools(backend, target)
    assert approved == (set(tools) if variant == "here" else set())
