"""Calls a chat model the way ``ainvoke`` does, but folds the streamed chunks as they arrive.

Kept beside ``ainvoke`` (a copy of a private langchain-core path) because no public API merges
a streamed reply's chunks while they arrive; ``tests/runtime/test_folded_call.py`` fails when
langchain-core changes the code copied here, so the copy is reviewed before it drifts.

Why: inside a LangGraph ``messages`` stream, ``BaseChatModel.ainvoke`` streams and keeps every
``ChatGenerationChunk`` (a pydantic object per token, ~2.4 KB each) until the reply ends, only
to merge them at the end; ``astream`` does the same for its ``on_llm_end``. A 20,000-token reply
thus holds ~47 MiB of chunk objects at its peak. Here the chunks are merged in small batches
while they arrive, so at most :data:`FOLD_BATCH` of them are alive at once.

Everything else follows ``BaseChatModel.agenerate`` → ``_agenerate_with_cache`` (langchain-core
1.7) step by step: the same callback manager and metadata (so LangGraph still sees each token
via ``on_llm_new_token``, tagged with its node), the same per-chunk ``response_metadata`` and
run id, the same trailing ``chunk_position="last"`` chunk, the same ``on_llm_end`` /
``on_llm_error``, and the same final ``AIMessage``. The merge of chunks is associative
(content concatenation, tool-call chunks merged by index, usage summed), so merging in batches
gives the message a single merge at the end would. One step is this app's own: a tool call
whose streamed arguments are not one whole JSON object is moved to ``invalid_tool_calls``
(:mod:`agents.graph.whole_calls`), so no tool runs on what langchain's lenient reader
completed. Whenever that path would not be taken
(no streaming handler attached, a v2 stream handler, an LLM cache, ``output_version="v1"``,
a model that cannot stream, or a langchain-core without these internals) it simply calls
``ainvoke``.

The chunk loop is paced (:mod:`agents.graph.pacing`): it hands the event loop back every few
milliseconds and waits while the turn's reader is far behind, so a fast provider neither
starves the app's keys and frames nor piles up stream items.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from types import SimpleNamespace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, LLMResult
from langchain_core.runnables import RunnableBinding, RunnableConfig
from langchain_core.runnables.config import ensure_config, merge_configs

from agents.graph.pacing import StreamPacer
from agents.graph.whole_calls import whole_calls_only

try:  # langchain-core internals the streaming branch of ``agenerate`` uses
    from langchain_core.callbacks import AsyncCallbackManager
    from langchain_core.globals import get_llm_cache
    from langchain_core.language_models._utils import (
        _filter_invocation_params_for_tracing,
        _normalize_messages,
    )
    from langchain_core.language_models.chat_models import (
        _format_for_tracing,
        _format_ls_structured_output,
        _gen_info_and_msg_metadata,
        _generate_response_from_error,
    )
    from langchain_core.messages import message_chunk_to_message
    from langchain_core.tracers._streaming import (
        _StreamingCallbackHandler,
        _V2StreamingCallbackHandler,
    )
    from langchain_core.utils.utils import LC_ID_PREFIX

    FOLDING_AVAILABLE = True
except ImportError:  # pragma: no cover - a langchain-core that moved them: plain ainvoke
    FOLDING_AVAILABLE = False

logger = logging.getLogger(__name__)

FOLD_BATCH = 256
"""Chunks merged at a time: bounds the live chunk objects, keeps the merge cost linear."""


def _unwrap(model: Any, config: RunnableConfig | None) -> tuple[Any, dict[str, Any], Any]:
    """``bind_tools`` wraps the model in ``RunnableBinding``s: collect their kwargs and config."""
    kwargs: dict[str, Any] = {}
    merged: Any = ensure_config(config)
    while isinstance(model, RunnableBinding) and not model.config_factories:
        kwargs = {**model.kwargs, **kwargs}
        merged = merge_configs(model.config, merged)
        model = model.bound
    return model, kwargs, merged


def _fold(acc: ChatGenerationChunk | None, batch: list[ChatGenerationChunk]) -> Any:
    if not batch:
        return acc
    if acc is None:
        return batch[0] if len(batch) == 1 else batch[0] + batch[1:]
    return acc + batch


def _inline_token_dispatch(run_manager: Any) -> Callable[[Any, ChatGenerationChunk], None] | None:
    """``run_manager.on_llm_new_token`` without the callback manager's per-token machinery,
    when every handler is a plain inline one (LangGraph's ``messages`` stream handler is).

    The manager awaits each inline handler through a coroutine and an ``asyncio.gather``,
    about a third of the runtime's own cost per token once the SDK hands chunks over as dicts.
    This calls the same methods with the same arguments, in the same order, and handles a
    handler's exception as ``langchain_core.callbacks.manager`` does (a warning, re-raised
    if the handler says ``raise_error``). ``None`` (use the manager) when any handler is
    asynchronous, runs off-line or ignores LLM events.
    """
    handlers = list(run_manager.handlers)
    if not handlers or any(
        not handler.run_inline
        or handler.ignore_llm
        or inspect.iscoroutinefunction(handler.on_llm_new_token)
        for handler in handlers
    ):
        return None
    calls = [(handler, handler.on_llm_new_token) for handler in handlers]
    ids = {
        "run_id": run_manager.run_id,
        "parent_run_id": run_manager.parent_run_id,
        "tags": run_manager.tags,
    }

    def new_token(token: Any, chunk: ChatGenerationChunk) -> None:
        for handler, method in calls:
            try:
                method(token, chunk=chunk, **ids)
            except Exception as exc:
                logger.warning(
                    "Error in %s.on_llm_new_token callback: %r", type(handler).__name__, exc
                )
                if handler.raise_error:
                    raise

    return new_token


async def call_model_folded(
    model: Any, messages: Sequence[BaseMessage], config: RunnableConfig | None = None
) -> BaseMessage:
    """``await model.ainvoke(messages, config)``, with the streamed chunks folded on arrival."""
    target, kwargs, merged_config = _unwrap(model, config)
    if not FOLDING_AVAILABLE or not isinstance(target, BaseChatModel):
        return await _ainvoke(model, list(messages), config)
    cache = target.cache
    uses_cache = cache is not False and (cache is not None or get_llm_cache() is not None)
    if uses_cache or target.output_version == "v1" or "stop" in kwargs:
        return await _ainvoke(model, list(messages), config)
    return await _folded_generate(model, target, list(messages), kwargs, merged_config)


async def _ainvoke(model: Any, messages: list[BaseMessage], config: Any) -> BaseMessage:
    reply: BaseMessage = await model.ainvoke(messages, config)
    return reply


def _unfolded_call(
    handlers: Sequence[Any], *, would_stream: bool
) -> Callable[[Any, list[BaseMessage], Any], Awaitable[BaseMessage]] | None:
    """How to call the model when the fold below does not apply (``None`` when it does)."""
    streams = any(isinstance(h, _StreamingCallbackHandler) for h in handlers)
    v2 = any(isinstance(h, _V2StreamingCallbackHandler) for h in handlers)
    if would_stream and not streams and not v2:
        # ``ainvoke`` would stream with no one listening (a graph run outside a ``messages``
        # stream): the same, through ``astream``, so the calls are checked whole here too.
        return _astream_folded
    if v2 or not (streams and would_stream):
        # Not the streaming branch ``ainvoke`` would take here: let it do its own thing.
        return _ainvoke
    return None


async def _astream_folded(model: Any, messages: list[BaseMessage], config: Any) -> BaseMessage:
    """``model.astream``'s chunks folded into the final message, as ``ainvoke`` returns it
    when it streams, with only whole tool calls (:func:`whole_calls_only`)."""
    acc: Any = None
    batch: list[Any] = []
    async for chunk in model.astream(messages, config):
        batch.append(chunk)
        if len(batch) >= FOLD_BATCH:
            acc, batch = _fold(acc, batch), []
    acc = _fold(acc, batch)
    if acc is None:
        raise ValueError("No generations found in stream.")
    reply: BaseMessage = message_chunk_to_message(whole_calls_only(acc))
    return reply


async def _folded_generate(
    model: Any,
    target: BaseChatModel,
    messages: list[BaseMessage],
    kwargs: dict[str, Any],
    config: Any,
) -> BaseMessage:
    kwargs = dict(kwargs)
    structured = kwargs.pop("ls_structured_output_format", None) or kwargs.pop(
        "structured_output_format", None
    )
    params = target._get_invocation_params(stop=None, **kwargs)
    options = {"stop": None, **_format_ls_structured_output(structured)}
    inheritable_metadata = {
        **(config.get("metadata") or {}),
        **target._get_ls_params_with_defaults(stop=None, **kwargs),
    }
    callback_manager = AsyncCallbackManager.configure(
        config.get("callbacks"),
        target.callbacks,
        target.verbose,
        config.get("tags"),
        target.tags,
        inheritable_metadata,
        target.metadata,
        langsmith_inheritable_metadata=_filter_invocation_params_for_tracing(params),
    )
    handlers = callback_manager.handlers
    would_stream = target._should_stream(
        async_api=True,
        run_manager=SimpleNamespace(handlers=handlers),  # type: ignore[arg-type]  # reads .handlers
        **kwargs,
    )
    other = _unfolded_call(handlers, would_stream=would_stream)
    if other is not None:
        return await other(model, messages, config)
    (run_manager,) = await callback_manager.on_chat_model_start(
        target._serialized,
        [_format_for_tracing(messages)],
        invocation_params=params,
        options=options,
        name=config.get("run_name"),
        batch_size=1,
        run_id=config.pop("run_id", None),
    )
    run_id = f"{LC_ID_PREFIX}-{run_manager.run_id}"
    acc: ChatGenerationChunk | None = None
    batch: list[ChatGenerationChunk] = []
    try:
        if target.rate_limiter:
            await target.rate_limiter.aacquire(blocking=True)
        chunk: ChatGenerationChunk | None = None
        new_token = _inline_token_dispatch(run_manager)
        pacer = StreamPacer()
        async for chunk in target._astream(_normalize_messages(messages), stop=None, **kwargs):
            chunk.message.response_metadata = _gen_info_and_msg_metadata(chunk)
            if chunk.message.id is None:
                chunk.message.id = run_id
            if new_token is None:
                await run_manager.on_llm_new_token(chunk.message.content, chunk=chunk)
            else:
                new_token(chunk.message.content, chunk)
            batch.append(chunk)
            if len(batch) >= FOLD_BATCH:
                acc, batch = _fold(acc, batch), []
            await pacer.tick()
        if (
            chunk is not None
            and isinstance(chunk.message, AIMessageChunk)
            and not chunk.message.chunk_position
        ):
            empty: Any = "" if isinstance(chunk.message.content, str) else []
            last = ChatGenerationChunk(
                message=AIMessageChunk(content=empty, chunk_position="last", id=run_id)
            )
            if new_token is None:
                await run_manager.on_llm_new_token("", chunk=last)
            else:
                new_token("", last)
            batch.append(last)
        acc, batch = _fold(acc, batch), []
        if acc is None:
            raise ValueError("No generations found in stream.")
        generation = ChatGeneration(
            message=message_chunk_to_message(whole_calls_only(acc.message)),
            generation_info=acc.generation_info,
        )
        acc = None
        if generation.message.id is None:
            generation.message.id = f"{run_id}-0"
        generation.message.response_metadata = _gen_info_and_msg_metadata(generation)
    except BaseException as exc:
        failed: list[list[Any]] = [_generate_response_from_error(exc)]
        await run_manager.on_llm_error(exc, response=LLMResult(generations=failed))
        raise
    generations: list[list[Any]] = [[generation]]
    await run_manager.on_llm_end(LLMResult(generations=generations, llm_output=None))
    return generation.message


__all__ = ["FOLDING_AVAILABLE", "FOLD_BATCH", "call_model_folded"]
