"""A model call made with no ``messages`` stream listening (a graph run by another host, a
structured call on its own) streams through ``astream`` and still runs or reads only tool calls
whose arguments arrived whole; calls past the round limit never run, and a reply left with no
text then is marked empty: the real ChatOpenAI client over HTTP on the local server."""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from pydantic import BaseModel

from agents.graph.folded_call import call_model_folded
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunFinished, ToolStarted
from agents.structured import MEMO, NoAnswer, structured_call
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


class Verdict(BaseModel):
    passed: bool


async def test_a_structured_answer_whose_arguments_end_early_is_not_read(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    MEMO.forget()
    cut = Reply(tool_calls=[ToolCall("Verdict", '{"passed": true')], finish_reason="stop")
    fake_openai.script(cut, cut, Reply("no JSON"), Reply("none either"))

    answer = await structured_call(
        openai_model().model, Verdict, [HumanMessage("ok?")], name="check"
    )

    assert isinstance(answer, NoAnswer)
    assert fake_openai.chat_bodies[0]["stream"] is True


async def test_a_folded_call_keeps_whole_calls_and_moves_cut_ones_to_invalid(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("Verdict", {"passed": True}, id="w1"),
                ToolCall("Verdict", '{"passed": fal', id="c1"),
            ],
            finish_reason="stop",
        )
    )
    model = openai_model().model.bind_tools([Verdict])

    reply = await call_model_folded(model, [HumanMessage("ok?")])

    assert isinstance(reply, AIMessage)
    assert [(c["id"], c["args"]) for c in reply.tool_calls] == [("w1", {"passed": True})]
    assert [(c["id"], c["args"]) for c in reply.invalid_tool_calls] == [("c1", '{"passed": fal')]


async def test_calls_past_the_round_limit_never_run_and_no_text_with_no_tool_run_is_empty(
    researcher: str,
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    search = ToolCall("search_knowledge_base", {"query": "BM25"})
    broken = ToolCall("search_knowledge_base", "query: BM25")
    fake_openai.script(Reply(tool_calls=[search]), Reply(tool_calls=[search]))
    runtime = AgentRuntime(store, checkpointer, max_tool_rounds=1)
    user = new_turn(store, researcher, "what is BM25?")

    events = await run(runtime, user, openai_model())

    # The turn's tool ran, so it is complete; the call past the limit never ran.
    assert isinstance(events[-1], RunFinished), events[-1]
    assert len(of_type(events, ToolStarted)) == 1

    fake_openai.script(Reply(tool_calls=[broken]), Reply(tool_calls=[search]))
    user = new_turn(store, researcher, "and RRF?")

    events = await run(runtime, user, openai_model())

    # Only a broken call answered, then calls past the limit and no text: marked empty.
    assert isinstance(events[-1], RunError), events[-1]
    assert [e.args for e in of_type(events, ToolStarted)] == [{}]
    record = events[-1].record
    assert record is not None
    assert store.get_message(record.id).meta["outcome"] == "empty"
