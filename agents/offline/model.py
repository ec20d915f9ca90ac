"""``OfflineChatModel``: the embedded demo model that lets every feature run with no network.

A LangChain ``BaseChatModel`` that streams word-ish tokens, honours ``bind_tools`` and emits
real tool calls (streamed as ``tool_call_chunks``), and reports approximate usage on the last
chunk. What it says comes from the calling node's step (see :mod:`agents.offline.turn`); with
no step, or a step with nothing to do, it says honestly what it cannot do.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.language_models.base import LangSmithParams
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.messages.tool import tool_call, tool_call_chunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from agents.offline.reply import Reply
from agents.offline.text import approx_tokens, split_tokens
from agents.offline.turn import OfflineSteps, OfflineTurn, cannot, read_turn, text_of

logger = logging.getLogger(__name__)

MODEL_NAME = "weaver-offline"
_ARG_PIECE = 24  # characters of tool-call JSON per streamed chunk


class OfflineChatModel(BaseChatModel):
    """The offline model. Same input, same output; the reply always depends on the input."""

    model_name: str = Field(default=MODEL_NAME)
    """Shown wherever the model is named."""
    token_delay_ms: float = Field(default=0.0, ge=0.0)
    """Pause between streamed tokens, for a natural feel in the app (0 in tests)."""
    steps: Mapping[str, Callable[..., Any]] = Field(default_factory=dict, exclude=True)
    """The running profile's offline behaviour: graph node name → step."""

    def with_steps(self, steps: OfflineSteps) -> OfflineChatModel:
        """This model, playing ``steps`` (a profile's offline module) in the nodes they name;
        a step it was already given for a node stays."""
        return self.model_copy(update={"steps": {**steps, **self.steps}})

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "token_delay_ms": self.token_delay_ms}

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        params = super()._get_ls_params(stop=stop, **kwargs)
        params["ls_provider"] = "offline"
        params["ls_model_name"] = self.model_name
        return params

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | dict[str, Any] | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools by their OpenAI schemas; ``tool_choice`` may be auto/none/any/required or a name."""
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    # -- deciding -------------------------------------------------------------------------

    def reply_for(self, messages: Sequence[BaseMessage], **kwargs: Any) -> Reply:
        """The reply for ``messages`` from the calling node's step, kept within what is bound."""
        turn = read_turn(messages, kwargs.get("tools") or (), kwargs.get("tool_choice"))
        reply = _decide(turn, self.steps.get(turn.node or ""))
        logger.debug(
            "offline reply decided",
            extra={"node": turn.node, "calls": [c.name for c in reply.calls]},
        )
        return reply

    def _usage(
        self, messages: Sequence[BaseMessage], reply: Reply, kwargs: dict[str, Any]
    ) -> UsageMetadata:
        prompt = sum(approx_tokens(text_of(m.content)) + 4 for m in messages)
        prompt += (
            approx_tokens(json.dumps(kwargs.get("tools") or [], sort_keys=True))
            if kwargs.get("tools")
            else 0
        )
        output = len(split_tokens(reply.text)) + sum(
            approx_tokens(json.dumps(dict(c.args))) + 4 for c in reply.calls
        )
        return UsageMetadata(
            input_tokens=prompt, output_tokens=output, total_tokens=prompt + output
        )

    def _first_call_number(self, messages: Sequence[BaseMessage]) -> int:
        return 1 + sum(len(m.tool_calls) for m in messages if isinstance(m, AIMessage))

    def _chunks(
        self, messages: list[BaseMessage], kwargs: dict[str, Any]
    ) -> Iterator[ChatGenerationChunk]:
        """Every chunk of the reply, in order; the last carries usage and the finish reason."""
        reply = self.reply_for(messages, **kwargs)
        pieces: list[AIMessageChunk] = [
            AIMessageChunk(content=token) for token in split_tokens(reply.text)
        ]
        first = self._first_call_number(messages)
        for index, call in enumerate(reply.calls):
            args = json.dumps(dict(call.args), ensure_ascii=False)
            parts = [args[i : i + _ARG_PIECE] for i in range(0, len(args), _ARG_PIECE)] or ["{}"]
            for n, part in enumerate(parts):
                pieces.append(
                    AIMessageChunk(
                        content="",
                        tool_call_chunks=[
                            tool_call_chunk(
                                name=call.name if n == 0 else None,
                                args=part,
                                id=f"call_{first + index}" if n == 0 else None,
                                index=index,
                            )
                        ],
                    )
                )
        finish = "tool_calls" if reply.calls else "stop"
        pieces.append(
            AIMessageChunk(
                content="",
                chunk_position="last",
                usage_metadata=self._usage(messages, reply, kwargs),
                response_metadata={"finish_reason": finish, "model_name": self.model_name},
            )
        )
        for piece in pieces:
            yield ChatGenerationChunk(message=piece)

    # -- LangChain hooks --------------------------------------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self.reply_for(messages, **kwargs)
        first = self._first_call_number(messages)
        message = AIMessage(
            content=reply.text,
            tool_calls=[
                tool_call(name=c.name, args=dict(c.args), id=f"call_{first + i}")
                for i, c in enumerate(reply.calls)
            ],
            usage_metadata=self._usage(messages, reply, kwargs),
            response_metadata={
                "finish_reason": "tool_calls" if reply.calls else "stop",
                "model_name": self.model_name,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        delay = self.token_delay_ms / 1000
        for chunk in self._chunks(messages, kwargs):
            if delay and chunk.message.content:
                time.sleep(delay)
            yield chunk

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        delay = self.token_delay_ms / 1000
        for chunk in self._chunks(messages, kwargs):
            # Yield to the loop on every chunk so a cancellation lands between tokens.
            await asyncio.sleep(delay if (delay and chunk.message.content) else 0)
            yield chunk


IMAGES = "see images"


def _decide(turn: OfflineTurn, step: Callable[[OfflineTurn], Reply | None] | None) -> Reply:
    """The step's reply within the bound tools, else the honest sentence; a forced call is
    always made (structured answers fill the schema with its defaults)."""
    if turn.images:
        return Reply(text=cannot(IMAGES, "Describe what the image shows, or pick a model that reads images."))  # fmt: skip
    reply = step(turn) if step is not None else None
    if reply is not None and turn.tool_choice == "none":
        reply = Reply(text=reply.text) if reply.text else None
    if reply is not None and any(c.name not in turn.tools for c in reply.calls):
        reply = None
    forced = turn.tool_choice in turn.tools or (turn.tool_choice == "any" and bool(turn.tools))
    if reply is None or not (reply.text or reply.calls) or (forced and not reply.calls):
        if forced:
            return turn.answer(_defaults(turn))
        reply = Reply(text=cannot())
    instructions = _instructions(turn)
    if instructions and not (reply.calls or reply.structured):
        note = f"I'm the offline demo model, so I cannot follow your instructions ({instructions[:80]!r}): this answer ignores them."  # fmt: skip
        return Reply(text=f"{reply.text}\n\n_{note}_")
    return reply


def _defaults(turn: OfflineTurn) -> dict[str, Any]:
    """The forced tool's required fields at their simplest valid values."""
    choice = turn.tool_choice or ""
    name = choice if choice in turn.tools else next(iter(turn.tools))
    schema = turn.tools[name]
    simple = {
        "string": "",
        "integer": 0,
        "number": 0.0,
        "boolean": False,
        "array": [],
        "object": {},
    }
    out: dict[str, Any] = {}
    for key in schema.get("required") or ():
        prop = (schema.get("properties") or {}).get(key) or {}
        if "default" in prop:
            out[key] = prop["default"]
        elif prop.get("enum"):
            out[key] = prop["enum"][0]
        else:
            out[key] = simple.get(str(prop.get("type")))
            if prop.get("minimum") is not None:
                out[key] = prop["minimum"]
    return out


def _instructions(turn: OfflineTurn) -> str:
    """The conversation's own instructions (``--system``), which the offline model cannot follow."""
    context = turn.context
    if context is None:
        return ""
    try:
        meta = context.store.get_conversation(context.conversation_id).meta
    except Exception:  # noqa: BLE001 (no readable instructions: the demo answers without them)
        return ""
    found = meta.get("instructions")
    return found.strip() if isinstance(found, str) else ""
