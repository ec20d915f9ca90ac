"""The agent node folds streamed chunks on arrival and still records exactly what ``ainvoke`` did.

The same scripted stream (content deltas, two tool calls whose arguments arrive in pieces, usage)
runs through the runtime twice: with the folding call (batches of 3 chunks, so the batched merge
is exercised many times) and with the node patched back to plain ``model.ainvoke``. The records,
token deltas and tool events must be the same.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any
from uuid import UUID, uuid4

import pytest
from langchain_core.callbacks import (
    AsyncCallbackHandler,
    AsyncCallbackManagerForLLMRun,
    BaseCallbackHandler,
)
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage
from langchain_core.outputs import ChatGenerationChunk, GenerationChunk

import agents.graph.agent_node as agent_node
import agents.graph.folded_call as folded_call
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, TokenDelta, ToolFinished, ToolStarted
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, one_chunk_per_event, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")

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


def _parallel_tools_in_call_order(records: list[Any]) -> list[Any]:
    """The two tool calls run in parallel and each result is saved as it finishes, so which
    comes first differs between runs: compare them in call order."""
    at = [i for i, (role, _, _) in enumerate(records) if role == "tool"]
    ordered = sorted((records[i] for i in at), key=lambda record: record[2]["tool_call_id"])
    records = list(records)
    for i, record in zip(at, ordered, strict=True):
        records[i] = record
    return records


async def _turn(store: Any, runtime: AgentRuntime, model: Any) -> dict[str, Any]:
    user = new_turn(store, "researcher", "compare ReWOO with tool rounds")
    events = await run(runtime, user, model)
    finished = of_type(events, RunFinished)[-1]
    records = [
        (r.role, r.content, {k: v for k, v in r.meta.items() if k not in VOLATILE_META})
        for r in store.path_to_root(finished.leaf_id)
    ]
    return {
        "status": finished.status,
        "records": _parallel_tools_in_call_order(records),
        "tokens": [e.text for e in of_type(events, TokenDelta)],
        "started": [(e.call_id, e.name, e.args) for e in of_type(events, ToolStarted)],
        "finished": sorted(
            (e.call_id, e.name, e.output, e.error) for e in of_type(events, ToolFinished)
        ),
        "usage": finished.usage,
    }


async def test_folded_stream_records_the_same_turn_as_ainvoke(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folds: list[int] = []
    real_fold = folded_call._fold

    def counting_fold(acc: Any, batch: list[Any]) -> Any:
        folds.append(len(batch))
        return real_fold(acc, batch)

    one_chunk_per_event(monkeypatch)  # many chunks to fold, in batches of three
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


async def test_outside_a_messages_stream_the_call_is_plain_ainvoke(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    """No streaming handler attached: the same request and message ``ainvoke`` gives."""
    fake_openai.script(Reply("Plain answer.", usage=(3, 2)), Reply("Plain answer.", usage=(3, 2)))
    model = openai_model().model

    folded = await folded_call.call_model_folded(model, [HumanMessage("hi")], None)
    plain = await model.ainvoke([HumanMessage("hi")])

    assert isinstance(folded, AIMessage)
    assert folded.content == plain.content == "Plain answer."
    assert folded.usage_metadata == plain.usage_metadata
    assert fake_openai.chat_bodies[0] == fake_openai.chat_bodies[1]


class _Inline(BaseCallbackHandler):
    run_inline = True

    def __init__(self, *, fail: bool = False, raise_error: bool = False) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.fail = fail
        self.raise_error = raise_error

    def on_llm_new_token(
        self,
        token: str | list[str | dict[str, Any]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.calls.append((token, chunk, run_id, tags))
        if self.fail:
            raise RuntimeError("handler broke")


class _Async(AsyncCallbackHandler):
    run_inline = True

    async def on_llm_new_token(
        self,
        token: str | list[str | dict[str, Any]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        return None


def _manager(*handlers: BaseCallbackHandler) -> SimpleNamespace:
    return SimpleNamespace(
        handlers=list(handlers), run_id=uuid4(), parent_run_id=None, tags=["agent"]
    )


def test_inline_handlers_get_each_token_with_the_run_ids_the_manager_would_pass(
    caplog: pytest.LogCaptureFixture,
) -> None:
    first, broken, last = _Inline(), _Inline(fail=True), _Inline()
    manager = _manager(first, broken, last)
    dispatch = folded_call._inline_token_dispatch(manager)
    assert dispatch is not None
    chunk = ChatGenerationChunk(message=AIMessageChunk(content="hi"))

    dispatch("hi", chunk)

    expected = ("hi", chunk, manager.run_id, ["agent"])
    assert first.calls == broken.calls == last.calls == [expected]
    assert "handler broke" in caplog.text  # logged, as the callback manager does

    strict = _Inline(fail=True, raise_error=True)
    dispatch = folded_call._inline_token_dispatch(_manager(strict))
    assert dispatch is not None
    with pytest.raises(RuntimeError, match="handler broke"):
        dispatch("x", chunk)


def test_the_callback_manager_is_used_when_a_handler_is_async_or_not_inline() -> None:
    off_line = _Inline()
    off_line.run_inline = False
    assert folded_call._inline_token_dispatch(_manager(_Inline(), _Async())) is None
    assert folded_call._inline_token_dispatch(_manager(off_line)) is None
    assert folded_call._inline_token_dispatch(_manager()) is None


async def test_a_runtime_turn_hands_tokens_to_the_stream_handler_directly(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    through_manager: list[str] = []
    real = AsyncCallbackManagerForLLMRun.on_llm_new_token

    async def counting(self: Any, token: Any, **kwargs: Any) -> None:
        through_manager.append(token)
        await real(self, token, **kwargs)

    monkeypatch.setattr(AsyncCallbackManagerForLLMRun, "on_llm_new_token", counting)
    _script(fake_openai)
    turn = await _turn(store, runtime, openai_model())

    assert through_manager == []
    assert "".join(turn["tokens"]).startswith("I will look in two places first.")


COPIED_FROM_LANGCHAIN_CORE = {
    "agenerate": "f4304f6ddc44aee6a4ec1f81b165dea18be17bc0077e61b0c0f4e0d4d857b4f7",
    "_agenerate_with_cache": "d03a5d3c0ad649a0a2344b94fed861b9350003d2dd7caaa01b8d44238e1c36f1",
}
"""SHA-256 of the ``BaseChatModel`` methods whose streaming branch ``folded_call`` follows,
as of the langchain-core it was last checked against (1.8.3)."""


def test_the_langchain_core_path_the_folded_call_copies_is_unchanged() -> None:
    """Fails when langchain-core changes the code ``agents.graph.folded_call`` re-implements:
    review the copy against the new methods, then record their new hashes here."""
    import hashlib
    import inspect

    from langchain_core.language_models import BaseChatModel

    assert folded_call.FOLDING_AVAILABLE, "langchain-core moved an internal the copy imports"
    now = {
        name: hashlib.sha256(inspect.getsource(getattr(BaseChatModel, name)).encode()).hexdigest()
        for name in COPIED_FROM_LANGCHAIN_CORE
    }
    assert now == COPIED_FROM_LANGCHAIN_CORE
