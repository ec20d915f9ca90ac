"""Mends one streamed reply of an OpenAI-compatible server, chunk by chunk, inside the model.

Two misbehaviours are mended here so that every caller of the model (the answer stream, a
profile's internal call, ``ainvoke`` or ``astream``) gets the same clean message:

- **Inline reasoning.** A model that writes ``<think>...</think>`` at the start of its content
  has that block moved to ``additional_kwargs[REASONING_KEY]``, where a server's separate
  ``reasoning_content`` goes (:class:`agents.providers.thinking.ThinkSplitter` decides, piece by piece).
  The content is the answer alone, so a draft, a critic's input, a citation or a memory never
  holds the model's thoughts.
- **A tool name repeated in every chunk.** OpenAI sends a streamed tool call's name once, in
  its first chunk; some servers (seen through NVIDIA NIM) repeat the whole name in each chunk,
  and merging the chunks glues the copies together (``read_fileread_file``). A chunk whose
  name is the one this call already has loses it.

A chunk that needs neither mend passes through as it is (no copy on the hot path).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

from agents.providers.thinking import REASONING_KEY, ThinkSplitter


class StreamRepair:
    """One per streamed reply: ``mend`` every chunk, then ``finish`` once at the end."""

    __slots__ = ("_names", "_splitter")

    def __init__(self) -> None:
        self._splitter = ThinkSplitter()
        self._names: dict[Any, str] = {}
        """Each tool call's name so far, by its index in the reply."""

    def mend(self, chunk: ChatGenerationChunk) -> ChatGenerationChunk:
        message = chunk.message
        if not isinstance(message, AIMessageChunk):
            return chunk
        update: dict[str, Any] = {}
        if message.tool_call_chunks:
            calls = self._named_once(message.tool_call_chunks)
            if calls is not None:
                update["tool_call_chunks"] = calls
                raw = message.additional_kwargs.get("tool_calls")
                if isinstance(raw, list):
                    update["additional_kwargs"] = {
                        **message.additional_kwargs,
                        "tool_calls": _without_names(raw, calls),
                    }
        content = message.content
        if isinstance(content, str) and content:
            reasoning, answer = self._splitter.feed(content)
            if reasoning or answer != content:
                update["content"] = answer
                kwargs = update.get("additional_kwargs", message.additional_kwargs)
                update["additional_kwargs"] = _with_reasoning(kwargs, reasoning)
        if not update:
            return chunk
        return _rebuilt(chunk, message, update)

    def finish(self) -> ChatGenerationChunk | None:
        """What the splitter still held (an unclosed block, a partial tag), as a last chunk."""
        reasoning, answer = self._splitter.finish()
        if not reasoning and not answer:
            return None
        kwargs = _with_reasoning({}, reasoning)
        return ChatGenerationChunk(message=AIMessageChunk(content=answer, additional_kwargs=kwargs))

    def _named_once(self, calls: list[Any]) -> list[Any] | None:
        """``calls`` with each repeated name removed, or ``None`` when none was repeated."""
        mended: list[Any] = []
        changed = False
        for call in calls:
            name, index = call.get("name"), call.get("index")
            if name and self._names.get(index) == name:
                mended.append({**call, "name": None})
                changed = True
                continue
            if name:
                self._names[index] = self._names.get(index, "") + name
            mended.append(call)
        return mended if changed else None


def _with_reasoning(kwargs: dict[str, Any], reasoning: str) -> dict[str, Any]:
    if not reasoning:
        return dict(kwargs)
    before = kwargs.get(REASONING_KEY)
    return {**kwargs, REASONING_KEY: (before if isinstance(before, str) else "") + reasoning}


def _without_names(raw: list[Any], mended: list[Any]) -> list[Any]:
    """The raw ``tool_calls`` deltas without the names ``mended`` dropped (same indexes)."""
    dropped = {call.get("index") for call in mended if call.get("name") is None}
    out = []
    for delta in raw:
        function = delta.get("function") if isinstance(delta, dict) else None
        if isinstance(function, dict) and delta.get("index") in dropped:
            delta = {**delta, "function": {**function, "name": None}}
        out.append(delta)
    return out


def _rebuilt(
    chunk: ChatGenerationChunk, message: AIMessageChunk, update: dict[str, Any]
) -> ChatGenerationChunk:
    """A new chunk with ``update`` applied: built anew (not copied) so the message's parsed
    ``tool_calls`` and the generation's ``text`` follow the mended fields."""
    fields = {
        "content": message.content,
        "additional_kwargs": message.additional_kwargs,
        "response_metadata": message.response_metadata,
        "tool_call_chunks": message.tool_call_chunks,
        "usage_metadata": message.usage_metadata,
        "id": message.id,
        "chunk_position": message.chunk_position,
        **update,
    }
    return ChatGenerationChunk(
        message=AIMessageChunk(**fields), generation_info=chunk.generation_info
    )
