"""paper-pilot over generated stage answers, through the runtime with a real store, the real
``ChatOpenAI`` client over HTTP and the shared notes server: a synthesis that was refused,
filtered, cut or empty ends the turn marked with one sentence and no critic judges it; a critic
verdict counts as passed only when it arrived whole from an unmarked answer, and only a passed
answer is remembered."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.reply_shapes import BLANKS, FINISHES, MARKS, blank, one_sentence, unfinished

ROUTE = {"intent": "factual", "confidence": 0.9, "reason": "a definition", "entities": ["LoRA"],
         "reformulated_query": "What is LoRA?"}  # fmt: skip
ANSWER = "LoRA trains two small low-rank matrices beside each frozen weight [1]."
PASSED = '{"score": 0.95, "passed": true, "feedback": ""}'


@st.composite
def stage_answers(draw: st.DrawFn) -> tuple[Reply, Reply, dict[str, Any]]:
    content = draw(st.sampled_from([*BLANKS, ANSWER]))
    finish = draw(st.sampled_from(FINISHES))
    refusal = draw(st.sampled_from([None, "I can't help with that."]))
    synthesis = Reply(
        content, finish_reason=finish, no_finish_reason=finish is None, refusal=refusal
    )
    verdict = draw(st.sampled_from(["whole", "cut", "refused"]))
    verdict_finish = draw(st.sampled_from(FINISHES))
    arguments = PASSED if verdict == "whole" else PASSED[:-12]
    critic = Reply(
        tool_calls=[] if verdict == "refused" else [ToolCall("CriticVerdict", arguments)],
        refusal="No." if verdict == "refused" else None,
        finish_reason=verdict_finish,
        no_finish_reason=verdict_finish is None,
    )
    shape = {"content": content, "finish": finish, "refusal": refusal, "verdict": verdict,
             "verdict_finish": verdict_finish}  # fmt: skip
    return synthesis, critic, shape


async def one_turn(
    folder: Path, settings_: dict[str, Any], model: Any
) -> tuple[list[Any], Any, Path]:
    data_dir = folder / "data"
    store = SqliteConversationStore(folder / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(folder / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, data_dir=data_dir, profile_settings=settings_)
        conversation = store.create_conversation("paper-pilot", "research")
        user = store.add_message(conversation.id, "user", "What is LoRA?", None)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=model
            )
        ]
        await runtime.aclose()
    return events, store, data_dir


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stage_answers())
def test_no_marked_stage_answer_counts_as_a_success(
    fake_openai: FakeOpenAI,
    openai_model: Any,
    notes_settings: dict[str, Any],
    generated: tuple[Reply, Reply, dict[str, Any]],
) -> None:
    synthesis, critic, shape = generated
    MEMO.forget()
    fake_openai.reset()
    fake_openai.script(Reply(tool_calls=[ToolCall("RouteDecision", ROUTE)]), synthesis, critic)
    with tempfile.TemporaryDirectory() as folder:
        events, store, data_dir = asyncio.run(
            one_turn(Path(folder), notes_settings, openai_model())
        )
        try:
            check(events, store, data_dir, shape, len(fake_openai.chat_requests))
        finally:
            store.close()


def check(
    events: list[Any], store: Any, data_dir: Path, shape: dict[str, Any], requests: int
) -> None:
    synthesis_marked = (
        bool(shape["refusal"]) or unfinished(shape["finish"]) or blank(shape["content"])
    )
    end = events[-1]
    if synthesis_marked:
        assert isinstance(end, ev.RunError), end
        assert requests == 2  # no critic judged it
        assert end.record is not None
        stored = store.get_message(end.record.id)
        assert stored.status is MessageStatus.ERROR
        assert stored.meta["outcome"] in MARKS
        assert one_sentence(stored.meta["error"])
        return
    assert isinstance(end, ev.RunFinished), end
    reply = store.get_message(end.leaf_id)
    assert reply.content.startswith("LoRA trains")
    passed = shape["verdict"] == "whole" and not unfinished(shape["verdict_finish"])
    state = reply.meta["check"]["state"] if reply.meta.get("check") else "checked"
    assert state == ("checked" if passed else "unchecked")
    with Memory(memory_path(data_dir)) as memory:
        facts = memory.all()
    if not passed:
        assert not facts, "only an answer whose verdict passed is remembered"
