"""``ChatOpenAI`` that reads every OpenAI-compatible server's reply the same way, and sends
back what each server needs.

Every raw chunk (and a finished completion) is read by :mod:`agents.providers.wire_normalizer`
before langchain-openai converts it: tool calls without ``index`` or ids, reasoning in
``reasoning_content``, ``reasoning`` or ``reasoning_details`` (into
``additional_kwargs[REASONING_KEY]``, with the field it came in), refusals. Reasoning a model
writes inline (``<think>...</think>``) is moved there too, in every call
(:mod:`agents.providers.stream_repair`), so no caller ever reads it as the answer.

Going the other way, ``ChatOpenAI`` builds a request's messages from the OpenAI fields only;
:mod:`agents.providers.request_mend` adds what servers need: ids on every call (in the server's
own format where it has one), the tool's ``name`` on tool messages, and the reasoning of an
assistant message with tool calls, in the field it came in, for a model whose preset says so
(``send_reasoning``). A server that answers 400 naming a missing reasoning field or an id
format is asked once more with it, and remembered (by base URL and model, for the life of the
process). Reasoning inline in an earlier round's content is never resent with that content.

Every call, streamed or whole, async or sync, is tried again after a transient failure (a rate limit,
an overloaded server, a reset connection) or a request too long for the model's context window
(cut to fit, once) that came before its first token (:mod:`agents.providers.retried_call`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Iterator, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

import openai
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGenerationChunk, ChatResult

# from its own module: the package's names import every other model (agents.deferred_inits)
from langchain_openai.chat_models.base import ChatOpenAI, _create_usage_metadata

from agents.providers.context_overflow import ContextWindow
from agents.providers.openai_answers import (
    NoReplyInCompletion,
    WholeCompletion,
    check_completion,
)
from agents.providers.presets import ToolCallIds
from agents.providers.rejections import provider_text
from agents.providers.request_mend import mend_messages
from agents.providers.retried_call import (
    RetriedCall,
    retried_result,
    retried_result_sync,
    retried_stream,
    retried_stream_sync,
)
from agents.providers.stream_repair import StreamRepair
from agents.providers.thinking import OPEN_TAG, REASONING_KEY, split_thinking
from agents.providers.usage_fields import COST_KEY, clean_usage
from agents.providers.whole_unicode import whole_unicode
from agents.providers.wire_normalizer import (
    CALL_EXTRAS_KEY,
    StreamNormalizer,
    completion_call_extras,
    fill_missing_ids,
    mend_completion,
)

logger = logging.getLogger(__name__)

_NEEDS_REASONING_BACK: dict[tuple[str, str], str] = {}
"""(base URL, model) of servers that answered 400 to a tool call sent without its reasoning,
and the field that 400 named."""
_NEEDS_CALL_EXTRAS: set[tuple[str, str]] = set()
"""(base URL, model) of servers that answered 400 to a tool call sent without its
signature (Gemini's ``thought_signature``)."""
_LEARNT_IDS: dict[tuple[str, str], ToolCallIds] = {}
"""(base URL, model) of servers that answered 400 to a tool-call id not in their format."""

_FIELD_NAMED = re.compile(r"\breasoning(?:_content|_details)?\b(?![.\[])")
"""A reasoning field named as a message's field (not a request parameter such as
``reasoning.effort``)."""
_ID_FORMAT = re.compile(r"tool.?call.?id\b.{0,200}?\blength of (\d{1,3})", re.I | re.S)


def needs_reasoning_back(base_url: str | None, model: str) -> bool:
    """Whether the server at ``base_url`` was seen to need reasoning back for ``model``."""
    return (base_url or "", model) in _NEEDS_REASONING_BACK


def asks_for_reasoning(exc: openai.BadRequestError) -> str | None:
    """The field a 400 says an assistant message lacks its reasoning in, if it says so
    (``reasoning_content``, ``reasoning`` or ``reasoning_details``)."""
    text = provider_text(exc).lower()
    if "missing" not in text and "required" not in text:
        return None
    if "message" not in text:  # it is about a message of the history, not a parameter
        return None
    found = _FIELD_NAMED.search(text)
    return found.group(0) if found else None


def asks_for_call_extras(exc: openai.BadRequestError) -> bool:
    """Whether a 400 says a tool call lacks the signature the server attached to it."""
    text = provider_text(exc).lower()
    return "thought_signature" in text or "thought signature" in text


def asks_for_ids(exc: openai.BadRequestError) -> ToolCallIds | None:
    """The id format a 400 says tool-call ids must have (Mistral's "Tool call id was X but
    must be a-z, A-Z, 0-9, with a length of 9."), if it says so."""
    found = _ID_FORMAT.search(f"{exc.message} {exc.body}")
    if found is None or not 1 <= int(found.group(1)) <= 64:
        return None
    return ToolCallIds(length=int(found.group(1)))


_T = TypeVar("_T")

_NORMALIZER: ContextVar[StreamNormalizer | None] = ContextVar("wire_normalizer", default=None)
"""The normalizer of the stream whose chunk is being converted: set before each step of that
stream and cleared when it ends (set, never reset by token: a stream may be closed from
another context)."""


async def _normalized(stream: AsyncIterator[_T]) -> AsyncIterator[_T]:
    """``stream`` (langchain-openai's own) with its raw chunks read by one
    :class:`StreamNormalizer` (see ``_convert_chunk_to_generation_chunk``)."""
    normalizer = StreamNormalizer()
    try:
        while True:
            _NORMALIZER.set(normalizer)
            try:
                item = await anext(stream)
            except StopAsyncIteration:
                return
            yield item
    finally:
        _NORMALIZER.set(None)


def _normalized_sync(stream: Iterator[_T]) -> Iterator[_T]:
    """:func:`_normalized` for the sync stream."""
    normalizer = StreamNormalizer()
    try:
        while True:
            _NORMALIZER.set(normalizer)
            try:
                item = next(stream)
            except StopIteration:
                return
            yield item
    finally:
        _NORMALIZER.set(None)


def _usage_in_choice(chunk: dict[str, Any]) -> dict[str, Any]:
    """``chunk`` with usage a server put inside ``choices[0]`` (Moonshot) moved to the top."""
    choices = chunk.get("choices")
    if chunk.get("usage") or not choices or not isinstance(choices[0], Mapping):
        return chunk
    usage = choices[0].get("usage")
    return {**chunk, "usage": usage} if isinstance(usage, Mapping) and usage else chunk


def _attach_usage(result: ChatResult, usage: dict[str, Any]) -> None:
    """A finished completion's ``usage`` (cleaned) on its messages, as a stream leaves it."""
    result.llm_output = {**(result.llm_output or {}), "token_usage": usage}
    for generation in result.generations:
        message = generation.message
        if isinstance(message, AIMessage):
            message.usage_metadata = _create_usage_metadata(usage)
            if COST_KEY in usage:
                message.response_metadata[COST_KEY] = usage[COST_KEY]


def _completion_data(response: Any) -> Mapping[str, Any]:
    """A whole answer's JSON object; :class:`NoReplyInCompletion` for a JSON body that is no
    object at all (``null``, a list, a string, a number)."""
    if isinstance(response, Mapping):
        return response
    if hasattr(response, "model_dump"):
        data: Mapping[str, Any] = response.model_dump(warnings=False)
        return data
    raise NoReplyInCompletion("the answer is not a chat completion")


class ReasoningChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` carrying reasoning into ``additional_kwargs`` and back (see above)."""

    send_reasoning: bool = False
    """Send an assistant message's reasoning back with its tool calls (the preset says so)."""
    tool_call_ids: ToolCallIds | None = None
    """The only tool-call ids the server accepts (the preset says so), else any."""
    send_call_extras: bool = False
    """Send back what the server attached to its tool calls (the traits say so)."""

    def _key(self) -> tuple[str, str]:
        return (self.openai_api_base or "", self.model_name)

    def _sends_call_extras(self) -> bool:
        return self.send_call_extras or self._key() in _NEEDS_CALL_EXTRAS

    def _sends_reasoning(self) -> bool:
        return self.send_reasoning or needs_reasoning_back(self.openai_api_base, self.model_name)

    def _learn(self, exc: openai.BadRequestError) -> bool:
        """Remember what this server needs (reasoning back in a field, an id format), if
        ``exc`` says so and it was not sent already; ``True`` when the request is worth one
        more try."""
        key = self._key()
        field = asks_for_reasoning(exc)
        if field is not None and _NEEDS_REASONING_BACK.get(key) != field:
            _NEEDS_REASONING_BACK[key] = field
            logger.info(
                "server needs reasoning sent back with tool calls; asking again",
                extra={"base_url": key[0], "model": key[1], "field": field},
            )
            return True
        if asks_for_call_extras(exc) and not self._sends_call_extras():
            _NEEDS_CALL_EXTRAS.add(key)
            logger.info(
                "server needs its tool-call signatures back; asking again",
                extra={"base_url": key[0], "model": key[1]},
            )
            return True
        ids = asks_for_ids(exc)
        if ids is not None and _LEARNT_IDS.get(key) != ids and self.tool_call_ids != ids:
            _LEARNT_IDS[key] = ids
            logger.info(
                "server needs tool-call ids in its own format; asking again",
                extra={"base_url": key[0], "model": key[1], "length": ids.length},
            )
            return True
        return False

    def _convert_chunk_to_generation_chunk(
        self,
        chunk: dict[str, Any],
        default_chunk_class: type,
        base_generation_info: dict[str, Any] | None,
    ) -> ChatGenerationChunk | None:
        chunk = _usage_in_choice(chunk)
        usage = chunk.get("usage")
        if usage is not None:  # only the fields read, well typed (a garbage usage is none)
            usage = clean_usage(usage)
            chunk = {**chunk, "usage": usage}
        normalizer = _NORMALIZER.get() or StreamNormalizer()
        extras = normalizer.chunk(chunk)
        generation = super()._convert_chunk_to_generation_chunk(
            chunk, default_chunk_class, base_generation_info
        )
        if generation is None:
            return None
        if usage and COST_KEY in usage:
            generation.message.response_metadata[COST_KEY] = usage[COST_KEY]
        if extras:
            generation.message.additional_kwargs.update(extras)
        return generation

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        # A transient failure or an overflow before the first token is tried again
        # (agents.providers.retried_call).
        repair = StreamRepair()
        async for chunk in retried_stream(
            messages, lambda sent: self._astream_once(sent, stop, **kwargs), self._retried_call()
        ):
            mended = repair.mend(chunk)
            if run_manager:
                await run_manager.on_llm_new_token(mended.text, chunk=mended)
            yield mended
        last = repair.finish()
        if last is not None:
            if run_manager:
                await run_manager.on_llm_new_token(last.text, chunk=last)
            yield last

    async def _astream_once(
        self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any
    ) -> AsyncIterator[ChatGenerationChunk]:
        """One streamed call: asked once more with the reasoning when the server says so."""
        for attempt in range(2):
            started = False
            try:
                async for chunk in _normalized(super()._astream(messages, stop=stop, **kwargs)):
                    started = True
                    yield chunk
            except WholeCompletion as whole:
                yield self._whole_as_chunk(whole.data)
            except openai.BadRequestError as exc:
                if started or attempt or not self._learn(exc):
                    raise
                continue
            return

    def _whole_as_chunk(self, data: dict[str, Any]) -> ChatGenerationChunk:
        """A whole completion a server sent for a streamed request, read as completions are
        (:meth:`_create_chat_result`), as the one chunk of the stream."""
        generation = self._create_chat_result(data).generations[0]
        message = generation.message
        calls = message.tool_calls if isinstance(message, AIMessage) else []
        broken = message.invalid_tool_calls if isinstance(message, AIMessage) else []
        call_chunks = [
            tool_call_chunk(
                name=call["name"], args=json.dumps(call["args"]), id=call["id"], index=n
            )
            for n, call in enumerate(calls)
        ] + [
            tool_call_chunk(
                name=call["name"], args=call["args"], id=call["id"], index=len(calls) + n
            )
            for n, call in enumerate(broken)
        ]
        chunk = AIMessageChunk(
            content=message.content,
            additional_kwargs=message.additional_kwargs,
            response_metadata=message.response_metadata,
            usage_metadata=getattr(message, "usage_metadata", None),
            tool_call_chunks=call_chunks,
            id=message.id,
        )
        return ChatGenerationChunk(message=chunk, generation_info=generation.generation_info)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        # The async stream's retries, for the sync one (agents.providers.retried_call).
        repair = StreamRepair()
        for chunk in retried_stream_sync(
            messages, lambda sent: self._stream_once(sent, stop, **kwargs), self._retried_call()
        ):
            mended = repair.mend(chunk)
            if run_manager:
                run_manager.on_llm_new_token(mended.text, chunk=mended)
            yield mended
        last = repair.finish()
        if last is not None:
            if run_manager:
                run_manager.on_llm_new_token(last.text, chunk=last)
            yield last

    def _stream_once(
        self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        """One sync streamed call: asked once more with what the server says it needs."""
        for attempt in range(2):
            started = False
            try:
                for chunk in _normalized_sync(super()._stream(messages, stop=stop, **kwargs)):
                    started = True
                    yield chunk
            except WholeCompletion as whole:
                yield self._whole_as_chunk(whole.data)
            except openai.BadRequestError as exc:
                if started or attempt or not self._learn(exc):
                    raise
                continue
            return

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        # A transient failure or an overflow is tried again (agents.providers.retried_call).
        return await retried_result(
            messages, lambda sent: self._agenerate_once(sent, *args, **kwargs), self._retried_call()
        )

    def _retried_call(self) -> RetriedCall:
        """One call's retries, with this model's context window (learned from an overflow)."""
        return RetriedCall(ContextWindow(self.openai_api_base, self.model_name))

    async def _agenerate_once(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        try:
            return await super()._agenerate(messages, *args, **kwargs)
        except openai.BadRequestError as exc:
            if not self._learn(exc):
                raise
        return await super()._agenerate(messages, *args, **kwargs)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        # The async call's retries, for the sync one (agents.providers.retried_call).
        return retried_result_sync(
            messages, lambda sent: self._generate_once(sent, *args, **kwargs), self._retried_call()
        )

    def _generate_once(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        try:
            return super()._generate(messages, *args, **kwargs)
        except openai.BadRequestError as exc:
            if not self._learn(exc):
                raise
        return super()._generate(messages, *args, **kwargs)

    def _create_chat_result(
        self, response: Any, generation_info: dict[str, Any] | None = None
    ) -> ChatResult:
        data = _completion_data(response)
        usage = clean_usage(data.get("usage"))  # read here, well typed, not by ChatOpenAI
        check_completion(data)  # an error said instead, or no reply in it: raised
        mended, broken = mend_completion(data)
        if mended is not None:  # calls framed otherwise, or arguments that are not an object
            response = {**mended, "usage": None}
        elif isinstance(response, Mapping):
            response = {**response, "usage": None}
        else:
            response = response.model_copy(update={"usage": None})
        result = super()._create_chat_result(response, generation_info)
        if usage:
            _attach_usage(result, usage)
        choices = (mended or data).get("choices") or ()  # choice 0 first, as parsed
        for generation, choice, pulled in zip(result.generations, choices, broken, strict=False):
            fields = choice.get("message") if isinstance(choice, Mapping) else None
            extras = StreamNormalizer().extras(fields) if isinstance(fields, Mapping) else None
            message = generation.message
            if isinstance(message, AIMessage):
                if pulled:
                    message.invalid_tool_calls = [*message.invalid_tool_calls, *pulled]
                fill_missing_ids(message)
                attached = (
                    completion_call_extras(fields.get("tool_calls"), message) if fields else {}
                )
                if attached:
                    message.additional_kwargs[CALL_EXTRAS_KEY] = attached
            if message.additional_kwargs.get("refusal", "") is None:
                del message.additional_kwargs["refusal"]
            if extras:
                message.additional_kwargs.update(extras)
            reasoning = (extras or {}).get(REASONING_KEY, "")
            inline, answer = "", message.content
            if isinstance(answer, str) and answer.lstrip().startswith(OPEN_TAG):
                inline, answer = split_thinking(answer)
                message.content = answer
                generation.text = answer
            if reasoning or inline:
                message.additional_kwargs[REASONING_KEY] = reasoning + inline
        return result

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        for part in ("messages", "tools"):  # text from outside may not be whole Unicode
            if part in payload:
                payload[part] = whole_unicode(payload[part])
        sent = payload.get("messages")
        if not sent:
            return payload
        for message in sent:
            if message.get("role") != "assistant":
                continue
            content = message.get("content")
            if isinstance(content, str) and content.lstrip().startswith(OPEN_TAG):
                answer = split_thinking(content)[1]
                message["content"] = answer or (None if message.get("tool_calls") else "")
        if any(m.get("role") == "tool" or m.get("tool_calls") for m in sent):
            key = self._key()
            mend_messages(
                sent,
                self._convert_input(input_).to_messages(),
                ids=_LEARNT_IDS.get(key) or self.tool_call_ids,
                reasoning_back=self._sends_reasoning(),
                learnt_field=_NEEDS_REASONING_BACK.get(key),
                call_extras=self._sends_call_extras(),
            )
        return payload
