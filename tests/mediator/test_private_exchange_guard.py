"""A post for everyone never repeats a participant's private exchange: neither their private
messages nor what the mediator told them alone (a private reply restates what they confided),
except what everyone has read anyway (a private reply that quotes a shared message).

Generated cases build a branch with a private reply to Sam and ask :func:`held_for` about
posts holding any window of at least eight of its words, re-cased and re-spaced; the concrete
case runs the real runtime on the fake OpenAI-compatible server.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ToolFinished
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.guard import RUN_WORDS, held_for
from agents.shared_space.seat_view import seat_lines
from storage.models import Conversation, MessageRecord
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply, ToolCall

REPLY = [
    "you",
    "told",
    "me",
    "you",
    "owe",
    "your",
    "brother",
    "five",
    "thousand",
    "euros",
    "from",
    "the",
    "casino",
    "nights",
    "and",
    "that",
    "you",
    "want",
    "to",
    "tell",
    "alex",
    "yourself",
]


def _record(number: int, role: str, content: str, **meta: Any) -> MessageRecord:
    return MessageRecord(
        id=f"r{number}", conversation_id="c", role=role, content=content,  # type: ignore[arg-type]
        parent_id=f"r{number - 1}" if number else None, depth=number, version=1,
        created_at=datetime(2026, 1, 1, tzinfo=UTC), meta=meta,
    )  # fmt: skip


def _branch(shared_words: str) -> list[MessageRecord]:
    text = " ".join(REPLY) + "."
    call = {"id": "p", "name": "reply_privately", "args": {"recipient": "Sam", "content": text}}
    return [
        _record(0, "user", "About my brother.", sender="Sam", visibility="Sam"),
        _record(1, "assistant", "", tool_calls=[call]),
        _record(2, "tool", "Delivered privately to Sam.", tool_call_id="p",
                name="reply_privately", visibility="Sam", delivered_content=text),
        _record(3, "user", shared_words or "Hello.", sender="Alex", visibility="shared"),
    ]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    start=st.integers(0, len(REPLY) - RUN_WORDS),
    extra=st.integers(0, 5),
    upper=st.booleans(),
    joiner=st.sampled_from([" ", "  ", ", ", "\n"]),
    said_before=st.booleans(),
)
def test_a_post_for_everyone_repeating_a_private_reply_is_held_unless_everyone_read_it(
    start: int, extra: int, upper: bool, joiner: str, said_before: bool
) -> None:
    window = REPLY[start : start + RUN_WORDS + extra]
    quoted = joiner.join(w.upper() if upper else w for w in window)
    path = _branch(" ".join(window) if said_before else "")
    held = held_for(f"Everyone: {quoted}.", path)
    assert held == ([] if said_before else ["Sam"])
    assert held_for(f"Sam: {quoted}.", path, reader="Sam") == []  # Sam may read their own


async def test_the_mediator_cannot_post_what_it_told_sam_alone(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    told = "You told me you owe your brother five thousand euros from the casino nights."
    model = openai_model()
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", {"recipient": "Sam", "content": told})]),
        Reply("Done."),
    )
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content="My brother."))
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": told}, id="leak")]),
        Reply("I will not share that."),
    )
    events = await say(
        runtime, store, space, model,
        UserMessageEvent(sender="Alex", content="Anything new?", visibility="shared"),
    )  # fmt: skip

    (post,) = [e for e in events if isinstance(e, ToolFinished) and e.call_id == "leak"]
    assert post.error is not None
    assert all("casino" not in line.content for line in seat_lines(store, space.id, "Alex"))
