"""A tool call runs only when its name is exactly one tool the turn offered (an allowlist):
the name forms real providers send (``functions.`` prefixes, Kimi's ``functions.x:0``, other
case, whitespace, a name not offered) never run a tool by a guess at what was meant; the call
is answered with an error the model reads, and the turn still ends complete or marked. The
real client over HTTP on the local server, the test-only ``researcher`` profile."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

TOOL = "search_knowledge_base"


def _near_misses() -> st.SearchStrategy[str]:
    """Names a provider may send for ``TOOL`` that are not ``TOOL``."""
    return st.one_of(
        st.sampled_from(
            [
                f"functions.{TOOL}",
                f"functions.{TOOL}:0",
                f"{TOOL}:0",
                TOOL.upper(),
                TOOL.title(),
                f" {TOOL}",
                f"{TOOL}\n",
                f"{TOOL}\u200b",
                TOOL.replace("_", "-"),
                "search",
                "",
            ]
        ),
        st.tuples(st.text(alphabet=" .:-_fnAZ0\t", max_size=4), st.text(" :0_.", max_size=3)).map(
            lambda t: f"{t[0]}{TOOL}{t[1]}"
        ),
    ).filter(lambda name: name != TOOL)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=_near_misses())
async def test_a_call_whose_name_is_not_exactly_an_offered_tool_never_runs_one(
    researcher: str,
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    name: str,
) -> None:
    fake_openai.reset()
    call = ToolCall(name, {"query": "BM25"}, id=f"functions.{TOOL}:0")
    fake_openai.script(Reply(tool_calls=[call]), Reply("Answered without the tool."))
    runtime = AgentRuntime(store, checkpointer, max_tool_rounds=3)
    user = new_turn(store, researcher, "what is BM25?")

    events = await run(runtime, user, openai_model())

    finished = of_type(events, ToolFinished)
    assert all(f.error for f in finished), finished  # answered with an error, never run
    assert all(f.name != TOOL for f in finished)
    assert isinstance(events[-1], RunFinished)
    # the call was answered (with its error) in the next request, as every call must be
    if len(fake_openai.chat_bodies) > 1:
        sent = fake_openai.chat_bodies[1]["messages"]
        assert [m for m in sent if m.get("role") == "tool"]
