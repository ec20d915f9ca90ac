"""The agent node folds streamed chunks on arrival and still records exactly what ``ainvoke`` did.

The same scripted stream (content deltas, two tool calls whose arguments arrive in pieces, usage)
runs through the runtime twice: with the folding call (batches of 3 chunks, so the batched merge
is exercised many times) and with the node patched back to plain ``model.ainvoke``. The records,
token deltas and tool events must be the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

import agents.graph.agent_node as agent_node
import agents.graph.folded_call as folded_call
from agents.events import RunFinished, TokenDelta, ToolFinished, ToolStarted
from agents.runtime import AgentRuntime
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import Reply, ToolCall

VOLATILE_META = {"latency_ms", "duration_ms", "thread_id"}


def _script(fake_openai: Any) -> None:
    fake_openai.script(
        Reply(
            deltas=["I will ", "look ", "in two ", "places ", "first."],
            tool_calls=[
                ToolCall("search_knowledge_base", {"query": "ReWOO planning"}, id="call_a"),
                ToolCall("search_knowledge_base", {"query": "tool rounds"}, id="call_b"),
            ],
            usage=(40, 12),
        ),
        Reply(deltas=["ReWOO ", "plans ", "first, ", "then ", "acts."], usage=(90, 6)),
    )


async def _turn(store: Any, runtime: AgentRuntime, model: Any) -> dict[str, Any]:
    user = new_turn(store, "paper-pilot", "compare ReWOO with tool rounds")
    events = await run(runtime, user, model)
    finished = of_type(events, RunFinished)[-1]
    records = [
        (r.role, r.content, {k: v for k, v in r.meta.items() if k not in VOLATILE_META})
        for r in store.path_to_root(finished.leaf_id)
    ]
    return {
        "status": finished.status,
        "records": records,
        "tokens": [e.text for e in of_type(events, TokenDelta)],
        "started": [(e.call_id, e.name, e.args) for e in of_type(events, ToolStarted)],
        "finished": [(e.call_id, e.name, e.output, e.error) for e in of_type(events, ToolFinished)],
        "usage": finished.usage,
    }


async def test_folded_stream_records_the_same_turn_as_ainvoke(
    store, runtime, fake_openai, openai_model, monkeypatch: pytest.MonkeyPatch
):
    folds: list[int] = []
    real_fold = folded_call._fold

    def counting_fold(acc: Any, batch: list[Any]) -> Any:
        folds.append(len(batch))
        return real_fold(acc, batch)

    monkeypatch.setattr(folded_call, "FOLD_BATCH", 3)
    monkeypatch.setattr(folded_call, "_fold", counting_fold)
    _script(fake_openai)
    folded = await _turn(store, runtime, openai_model())

    async def plain_ainvoke(model: Any, messages: Any, config: Any) -> Any:
        return await model.ainvoke(messages, config)

    monkeypatch.setattr(agent_node, "call_model_folded", plain_ainvoke)
    _script(fake_openai)
    before = await _turn(store, runtime, openai_model())

    assert len(folds) > 4, "the folding path was not taken"
    assert max(folds) <= 3, "more chunks alive at once than one batch"
    assert folded == before
    roles = [role for role, _, _ in folded["records"]]
    assert roles == ["user", "assistant", "tool", "tool", "assistant"]
    call_meta = folded["records"][1][2]
    assert folded["records"][1][1] == "I will look in two places first."
    assert call_meta["tool_calls"] == [
        {"id": "call_a", "name": "search_knowledge_base", "args": {"query": "ReWOO planning"}},
        {"id": "call_b", "name": "search_knowledge_base", "args": {"query": "tool rounds"}},
    ]
    assert call_meta["usage"] == {"input_tokens": 40, "output_tokens": 12, "total_tokens": 52}
    assert folded["records"][-1][1] == "ReWOO plans first, then acts."
    assert folded["tokens"][-5:] == ["ReWOO ", "plans ", "first, ", "then ", "acts."]


async def test_outside_a_messages_stream_the_call_is_plain_ainvoke(fake_openai, openai_model):
    """No streaming handler attached: the same request and message ``ainvoke`` gives."""
    fake_openai.script(Reply("Plain answer.", usage=(3, 2)), Reply("Plain answer.", usage=(3, 2)))
    model = openai_model().model

    folded = await folded_call.call_model_folded(model, [HumanMessage("hi")], None)
    plain = await model.ainvoke([HumanMessage("hi")])

    assert isinstance(folded, AIMessage)
    assert folded.content == plain.content == "Plain answer."
    assert folded.usage_metadata == plain.usage_metadata
    assert fake_openai.chat_requests[0].body == fake_openai.chat_requests[1].body
