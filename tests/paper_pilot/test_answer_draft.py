"""paper-pilot streams its answer: the synthesis reaches the chat as a draft while it is
written, the critic then marks it checked, rejected (the retry's draft replaces it) or
unchecked, and the stored reply is only the settled answer. The router reads intent and slots
in one structured call. All through the real ChatOpenAI client against the local server."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.drafts import REJECTED as FIRST
from tests.paper_pilot.drafts import SETTLED as SECOND
from tests.paper_pilot.drafts import route, script_rejected_then_settled, verdict
from tests.support.fake_openai import FakeOpenAI, Reply

WAIT_S = 30.0
"""How long a gated reply waits for the test (only a failing test waits that long)."""

Pilot = tuple[AgentRuntime, SqliteConversationStore]


async def run(
    pilot: Pilot, handle: ChatModelHandle, on_event: Callable[[Any], None] = lambda e: None
) -> tuple[list[Any], Any]:
    runtime, store = pilot
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", "What is LoRA?", None)
    events = []
    async for event in runtime.run_turn(
        conversation_id=conversation.id, user_message_id=user.id, model=handle
    ):
        on_event(event)
        events.append(event)
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    return events, store.get_message(finished[-1].leaf_id)


def tokens(events: list[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, ev.TokenDelta))


async def test_the_draft_streams_into_the_chat_before_the_critic_is_asked(
    notes_runtime: Pilot, fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    draft_seen = threading.Event()
    seen_when_asked: list[bool] = []

    def critic(body: dict[str, Any]) -> Reply:
        # The critic's request is in flight: the chat must already show the draft's words.
        seen_when_asked.append(draft_seen.wait(WAIT_S))
        return verdict(True)

    def watch(event: Any) -> None:
        if isinstance(event, ev.TokenDelta) and "low-rank" in event.text:
            draft_seen.set()

    fake_openai.script(route(), Reply(SECOND), critic)
    events, reply = await run(notes_runtime, openai_model(), watch)

    assert seen_when_asked == [True]
    stages = [(e.stage, e.withdrawn) for e in events if isinstance(e, ev.AnswerDraft)]
    assert stages == [("draft", False), ("checked", False), ("settled", True)]
    drafting = next(e for e in events if isinstance(e, ev.AnswerDraft))
    assert drafting.record.meta["check"] == {"state": "draft", "note": ""}
    assert reply.content.startswith(SECOND.removesuffix(" [1]."))
    assert "**Sources**" in reply.content
    assert reply.meta["check"]["state"] == "checked"
    # After the settled mark, the stored answer streams whole: a consumer that held the draft
    # back shows exactly the reply as stored.
    settled = next(i for i, e in enumerate(events) if getattr(e, "stage", "") == "settled")
    assert tokens(events[settled:]) == reply.content


async def test_a_rejected_draft_is_replaced_by_the_retry_and_never_stored_as_the_reply(
    notes_runtime: Pilot, fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    script_rejected_then_settled(fake_openai)
    events, reply = await run(notes_runtime, openai_model())

    marks = [(e.stage, e.withdrawn) for e in events if isinstance(e, ev.AnswerDraft)]
    assert marks == [
        ("draft", False),
        ("rejected", False),
        ("draft", True),  # the retry's draft takes the rejected one's place
        ("checked", False),
        ("settled", True),
    ]
    retry = next(e for e in events if isinstance(e, ev.AnswerDraft) and e.withdrawn)
    assert retry.record.content == ""  # the store no longer holds the rejected words
    rejected = next(e for e in events if isinstance(e, ev.AnswerDraft) and e.stage == "rejected")
    assert "every weight is replaced" in rejected.note
    assert "replaces every weight" not in reply.content
    assert reply.content.startswith(SECOND.removesuffix(" [1]."))
    # The rejected draft stays in the turn's trace, beside the verdict that rejected it.
    critics = [s for s in reply.meta["paper_pilot"]["stages"] if s["stage"] == "critic"]
    assert critics[0]["rejected_draft"] == FIRST
    assert "rejected_draft" not in critics[1]


async def test_intent_and_slots_are_read_in_one_structured_call(
    notes_runtime: Pilot, fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(route(), Reply(SECOND), verdict(True))
    _, reply = await run(notes_runtime, openai_model())

    bodies = fake_openai.chat_bodies
    assert len(bodies) == 3  # route with its slots, the synthesis, the critic
    schema = bodies[0]["tools"][0]["function"]
    assert schema["name"] == "RouteDecision"
    assert {"intent", "entities", "reformulated_query"} <= set(schema["parameters"]["properties"])
    routed = next(s for s in reply.meta["paper_pilot"]["stages"] if s["stage"] == "route")
    assert (routed["intent"], routed["entities"]) == ("factual", ["LoRA"])
    assert "What is LoRA?" in json.dumps(bodies[1])


async def test_a_draft_cut_short_by_cancel_is_kept_marked_as_a_cancelled_draft(
    notes_runtime: Pilot, fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    cancel = asyncio.Event()
    release = threading.Event()

    def slow_draft(body: dict[str, Any]) -> Reply:
        return Reply(deltas=["LoRA trains", " two small"], token_delay=0.05)

    def critic(body: dict[str, Any]) -> Reply:
        release.wait(WAIT_S)  # never answered: the turn is cancelled first
        return verdict(True)

    def watch(event: Any) -> None:
        if isinstance(event, ev.NodeStatus) and event.text.startswith("draft of"):
            cancel.set()

    fake_openai.script(route(), slow_draft, critic)
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", "What is LoRA?", None)
    events = []
    try:
        async for event in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=openai_model(),
            cancel=cancel,
        ):  # fmt: skip
            watch(event)
            events.append(event)
    finally:
        release.set()
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert [f.status for f in finished] == ["cancelled"]
    reply = store.get_message(finished[0].leaf_id)
    assert reply.status == MessageStatus.CANCELLED
    assert reply.content == "LoRA trains two small"
    assert reply.meta["check"] == {"state": "draft", "note": ""}
    leaf = store.active_leaf(conversation.id)
    assert leaf is not None
    assert leaf.id == reply.id


def knowledge_server_running(index_folder: Path) -> bool:
    """Whether a knowledge server process on an index in ``index_folder`` runs now."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue  # the process ended meanwhile
        if b"agents.profiles.paper_pilot.knowledge.server" in words and any(
            str(index_folder).encode() in word for word in words
        ):
            return True
    return False


async def test_the_knowledge_server_starts_while_the_question_is_routed(
    pilot_runtime: Pilot,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    data_dir: Path,
) -> None:
    running_while_routed: list[bool] = []

    def routing(body: dict[str, Any]) -> Reply:
        deadline = time.monotonic() + WAIT_S
        while not knowledge_server_running(data_dir) and time.monotonic() < deadline:
            time.sleep(0.02)  # polling a condition, bounded: only a failing test waits long
        running_while_routed.append(knowledge_server_running(data_dir))
        return route()

    fake_openai.script(routing, Reply(SECOND), verdict(True))
    _, reply = await run(pilot_runtime, openai_model())

    assert running_while_routed == [True]
    assert "**Sources**" in reply.content
