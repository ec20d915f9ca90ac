"""``ChatOpenAI`` that keeps a thinking model's ``reasoning_content``, and never sends it back.

The OpenAI-compatible servers of DeepSeek, Moonshot (Kimi), DashScope (Qwen), vLLM and Ollama
stream a reasoning model's thoughts in ``choices[0].delta.reasoning_content`` beside
``content`` (and a finished completion in ``message.reasoning_content``). ``ChatOpenAI``
reads only the OpenAI fields and drops it; :class:`ReasoningChatOpenAI` puts it in the
message's ``additional_kwargs[REASONING_KEY]``, where the runtime finds it.

Going the other way, ``ChatOpenAI`` builds a request's assistant messages from their content
and tool calls only, so reasoning in ``additional_kwargs`` is never sent. Reasoning a model
wrote inline (``<think>...</think>`` at the start of its content, see :mod:`agents.thinking`)
would go back with the content of an earlier round of the same turn: the request leaves it
out too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI

from agents.thinking import OPEN_TAG, REASONING_KEY, split_thinking


def _reasoning_of(message: Any) -> str:
    # ``type(...) is dict`` first: a streamed delta is a dict, and an ABC check costs more.
    is_mapping = type(message) is dict or isinstance(message, Mapping)
    value = message.get(REASONING_KEY) if is_mapping else None
    return value if isinstance(value, str) else ""


class ReasoningChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` carrying ``reasoning_content`` into ``additional_kwargs`` (see above)."""

    def _convert_chunk_to_generation_chunk(
        self,
        chunk: dict[str, Any],
        default_chunk_class: type,
        base_generation_info: dict[str, Any] | None,
    ) -> ChatGenerationChunk | None:
        generation = super()._convert_chunk_to_generation_chunk(
            chunk, default_chunk_class, base_generation_info
        )
        if generation is None:
            return None
        choices = chunk.get("choices")
        choice = choices[0] if choices else None
        if type(choice) is dict or isinstance(choice, Mapping):
            reasoning = _reasoning_of(choice.get("delta"))
            if reasoning:
                generation.message.additional_kwargs[REASONING_KEY] = reasoning
        return generation

    def _create_chat_result(
        self, response: Any, generation_info: dict[str, Any] | None = None
    ) -> ChatResult:
        result = super()._create_chat_result(response, generation_info)
        data = response if isinstance(response, Mapping) else response.model_dump()
        for generation, choice in zip(result.generations, data.get("choices") or (), strict=False):
            reasoning = _reasoning_of(
                choice.get("message") if isinstance(choice, Mapping) else None
            )
            if reasoning:
                generation.message.additional_kwargs[REASONING_KEY] = reasoning
        return result

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        for message in payload.get("messages") or ():
            content = message.get("content")
            if (
                message.get("role") == "assistant"
                and isinstance(content, str)
                and content.lstrip().startswith(OPEN_TAG)
            ):
                answer = split_thinking(content)[1]
                message["content"] = answer or (None if message.get("tool_calls") else "")
        return payload
