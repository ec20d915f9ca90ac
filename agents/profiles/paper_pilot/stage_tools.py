"""What paper-pilot's stages share: a message's text, a stage's structured model call, the
question as the model reads it, and the entries of the turn's trace."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel

from agents.profile import TurnContext
from agents.profiles.paper_pilot.state import PaperPilotState
from agents.structured import NoAnswer, structured_call

M = TypeVar("M", bound=BaseModel)
Node = Callable[[PaperPilotState, Runtime[TurnContext]], Awaitable[dict[str, Any]]]


def message_text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content if isinstance(b, dict))


def stage_system(context: TurnContext, stage: str) -> str:
    """The profile's system prompt (the user's override and the conversation's instructions
    included), then the stage's own instructions: one system message, which every provider
    takes."""
    persona = context.system_prompt.strip()
    return f"{persona}\n\n{stage}" if persona else stage


async def ask_structured(
    context: TurnContext, schema: type[M], system: str, text: str, step: str
) -> M | NoAnswer:
    """The model's answer in ``schema``, or :class:`NoAnswer` saying why there is none; asked
    of the step's role model when the settings give it one (:mod:`.role_models`), and of the
    turn's model when that one fails or gives no answer (said once per role)."""
    from agents.profiles.paper_pilot.role_models import ROLE_OF_STEP, role_calls

    messages = [SystemMessage(stage_system(context, system)), HumanMessage(text)]

    async def ask(model: BaseChatModel) -> M | NoAnswer:
        return await structured_call(model, schema, messages, name=step)

    return await role_calls(context).call(ROLE_OF_STEP.get(step), step, ask, no_answer_reason)


def no_answer_reason(answer: object) -> str | None:
    """Why a structured answer is none (``None``: it is an answer)."""
    return answer.reason if isinstance(answer, NoAnswer) else None


def trace_entry(
    stage: str, started: float, context: TurnContext | None = None, **facts: Any
) -> dict[str, Any]:
    """One stage of the trace: its name, its time since ``started``, its facts, and (given
    the turn's ``context``) ``model``: the model of every call the stage made, named once each,
    in call order (a stage that asked no model has none), and ``fallback``: the sentences that
    said a role's model failed during the stage."""
    entry = {"stage": stage, "ms": round((time.perf_counter() - started) * 1000, 1), **facts}
    if context is not None:
        from agents.profiles.paper_pilot.role_models import role_calls

        calls = role_calls(context)
        if models := calls.models_since(started):
            entry["model"] = ", ".join(models)
        if fallbacks := calls.fallbacks_since(started):
            entry["fallback"] = fallbacks
    return entry


def with_trace(state: PaperPilotState, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The turn's trace with one more stage (a plain list: subgraphs hand back the whole)."""
    return [*(state.get("trace") or []), entry]


def question_text(state: PaperPilotState) -> str:
    lines = [f"Question: {state.get('query') or state.get('question', '')}"]
    if state.get("query") and state.get("query") != state.get("question"):
        lines.append(f"Original question: {state.get('question', '')}")
    history = state.get("history") or []
    if history:
        lines.append("Earlier in this conversation:")
        lines.extend(f"- {line}" for line in history)
    return "\n".join(lines)
