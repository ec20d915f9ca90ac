"""``ChatOpenAI`` that keeps a thinking model's reasoning apart, and sends it back only where
the provider needs it.

The OpenAI-compatible servers of DeepSeek, Moonshot (Kimi), DashScope (Qwen), vLLM and Ollama
stream a reasoning model's thoughts in ``choices[0].delta.reasoning_content`` beside
``content`` (and a finished completion in ``message.reasoning_content``). ``ChatOpenAI``
reads only the OpenAI fields and drops it; :class:`ReasoningChatOpenAI` puts it in the
message's ``additional_kwargs[REASONING_KEY]``, where the runtime finds it. Reasoning a model
writes inline (``<think>...</think>``) is moved there too, in every call
(:mod:`agents.providers.stream_repair`), so no caller ever reads it as the answer.

Going the other way, ``ChatOpenAI`` builds a request's assistant messages from their content
and tool calls only, so reasoning in ``additional_kwargs`` is never sent. Reasoning a model
wrote inline (``<think>...</think>`` at the start of its content, see :mod:`agents.providers.thinking`)
would go back with the content of an earlier round of the same turn: the request leaves it
out too.
and tool calls only, so reasoning is not sent back, which is right for most servers. A thinking
model of DeepSeek or Kimi, though, answers 400 ("Missing `reasoning_content` field") to an
assistant message with tool calls that lacks it. Such a model's preset says so
(``send_reasoning``); any other server that answers that 400 is asked once more with the
reasoning, and remembered (by base URL and model, for the life of the process) as one that
needs it. Reasoning inline in an earlier round's content is never resent with that content.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import openai
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI
from langchain_openai.chat_models.base import _create_usage_metadata

from agents.providers.stream_repair import StreamRepair
from agents.providers.thinking import OPEN_TAG, REASONING_KEY, split_thinking
from agents.providers.usage_fields import COST_KEY, clean_usage

logger = logging.getLogger(__name__)

_NEEDS_REASONING_BACK: set[tuple[str, str]] = set()
"""(base URL, model) of servers that answered 400 to a tool call sent without its reasoning."""


def needs_reasoning_back(base_url: str | None, model: str) -> bool:
    """Whether the server at ``base_url`` was seen to need ``reasoning_content`` for ``model``."""
    return (base_url or "", model) in _NEEDS_REASONING_BACK


def asks_for_reasoning(exc: openai.BadRequestError) -> bool:
    """Whether a 400 says an assistant message lacks its ``reasoning_content``."""
    text = f"{exc.message} {exc.body}".lower()
    return "reasoning_content" in text and ("missing" in text or "required" in text)


def _reasoning_of(message: Any) -> str:
    # ``type(...) is dict`` first: a streamed delta is a dict, and an ABC check costs more.
    is_mapping = type(message) is dict or isinstance(message, Mapping)
    value = message.get(REASONING_KEY) if is_mapping else None
    return value if isinstance(value, str) else ""


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


class ReasoningChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` carrying reasoning into ``additional_kwargs`` and back (see above)."""

    send_reasoning: bool = False
    """Send an assistant message's reasoning back with its tool calls (the preset says so)."""

    def _sends_reasoning(self) -> bool:
        return self.send_reasoning or needs_reasoning_back(self.openai_api_base, self.model_name)

    def _learn(self, exc: openai.BadRequestError) -> bool:
        """Remember that this server needs reasoning back, if ``exc`` says so and it was not
        sent already; ``True`` when the request is worth one more try."""
        if self._sends_reasoning() or not asks_for_reasoning(exc):
            return False
        _NEEDS_REASONING_BACK.add((self.openai_api_base or "", self.model_name))
        logger.info(
            "server needs reasoning sent back with tool calls; asking again",
            extra={"base_url": self.openai_api_base, "model": self.model_name},
        )
        return True

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
        generation = super()._convert_chunk_to_generation_chunk(
            chunk, default_chunk_class, base_generation_info
        )
        if generation is None:
            return None
        if usage and COST_KEY in usage:
            generation.message.response_metadata[COST_KEY] = usage[COST_KEY]
        choices = chunk.get("choices")
        choice = choices[0] if choices else None
        if type(choice) is dict or isinstance(choice, Mapping):
            reasoning = _reasoning_of(choice.get("delta"))
            if reasoning:
                generation.message.additional_kwargs[REASONING_KEY] = reasoning
        return generation

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        for attempt in range(2):
            repair, started = StreamRepair(), False
            try:
                async for chunk in super()._astream(messages, stop=stop, **kwargs):
                    started = True
                    mended = repair.mend(chunk)
                    if run_manager:
                        await run_manager.on_llm_new_token(mended.text, chunk=mended)
                    yield mended
            except openai.BadRequestError as exc:
                if started or attempt or not self._learn(exc):
                    raise
                continue
            last = repair.finish()
            if last is not None:
                if run_manager:
                    await run_manager.on_llm_new_token(last.text, chunk=last)
                yield last
            return

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for attempt in range(2):
            repair, started = StreamRepair(), False
            try:
                for chunk in super()._stream(messages, stop=stop, **kwargs):
                    started = True
                    mended = repair.mend(chunk)
                    if run_manager:
                        run_manager.on_llm_new_token(mended.text, chunk=mended)
                    yield mended
            except openai.BadRequestError as exc:
                if started or attempt or not self._learn(exc):
                    raise
                continue
            last = repair.finish()
            if last is not None:
                if run_manager:
                    run_manager.on_llm_new_token(last.text, chunk=last)
                yield last
            return

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        try:
            return await super()._agenerate(messages, *args, **kwargs)
        except openai.BadRequestError as exc:
            if not self._learn(exc):
                raise
        return await super()._agenerate(messages, *args, **kwargs)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        try:
            return super()._generate(messages, *args, **kwargs)
        except openai.BadRequestError as exc:
            if not self._learn(exc):
                raise
        return super()._generate(messages, *args, **kwargs)

    def _create_chat_result(
        self, response: Any, generation_info: dict[str, Any] | None = None
    ) -> ChatResult:
        data = response if isinstance(response, Mapping) else response.model_dump(warnings=False)
        usage = clean_usage(data.get("usage"))  # read here, well typed, not by ChatOpenAI
        if isinstance(response, Mapping):
            response = {**response, "usage": None}
        else:
            response = response.model_copy(update={"usage": None})
        result = super()._create_chat_result(response, generation_info)
        if usage:
            _attach_usage(result, usage)
        for generation, choice in zip(result.generations, data.get("choices") or (), strict=False):
            reasoning = _reasoning_of(
                choice.get("message") if isinstance(choice, Mapping) else None
            )
            message = generation.message
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
        sent = payload.get("messages") or ()
        sends_reasoning = self._sends_reasoning()
        originals = self._convert_input(input_).to_messages() if sends_reasoning else ()
        for index, message in enumerate(sent):
            if message.get("role") != "assistant":
                continue
            content = message.get("content")
            if isinstance(content, str) and content.lstrip().startswith(OPEN_TAG):
                answer = split_thinking(content)[1]
                message["content"] = answer or (None if message.get("tool_calls") else "")
            if sends_reasoning and message.get("tool_calls") and index < len(originals):
                original = originals[index]
                kept = (
                    original.additional_kwargs.get(REASONING_KEY)
                    if isinstance(original, AIMessage)
                    else None
                )
                message[REASONING_KEY] = kept if isinstance(kept, str) else ""
        return payload
