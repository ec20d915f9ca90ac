"""Token usage is recorded wherever a provider's stream puts it: a last ``choices: []`` chunk
(OpenAI), top-level on the chunk with the finish reason, or inside its ``choices[0]``
(Moonshot); a turn with a tool round records the sum of both calls."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, Usage
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")


@pytest.mark.parametrize("where", ["final chunk", "finish chunk", "in choice"])
async def test_usage_is_recorded_wherever_the_stream_puts_it(
    where: str,
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[ToolCall("search_knowledge_base", {"query": "BM25"})],
            usage=(50, 5),
            usage_at=where,
        ),
        Reply("BM25 ranks documents.", usage=(80, 7), usage_at=where),
    )
    user = new_turn(store, "researcher", "what is BM25?")

    events = await run(runtime, user, openai_model())

    finished = of_type(events, RunFinished)[0]
    assert finished.usage == Usage(130, 12, 142)
    reply = store.get_message(finished.leaf_id)
    assert reply.meta["usage"] == {"input_tokens": 80, "output_tokens": 7, "total_tokens": 87}
    assert reply.meta["turn_usage"]["total_tokens"] == 142
