"""The answer-producing node: the profile's tools bound to the turn's model, plus the round limit.

The graph is compiled once per profile, so the model is not baked in: it comes from
``runtime.context.model`` (the one the user picked for this turn), as does the system prompt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from agents.context import PINNED_KEY
from agents.context_budget import CONTEXT_WINDOW_KEY, fit_to_window
from agents.graph.bound_tools import bind_tools_once
from agents.graph.broken_calls import check_broken_rounds
from agents.graph.emulated_tools import (
    as_text_history,
    as_tool_call,
    emulates_tools,
    parse_call,
    refuses_tools,
    remember_emulation,
    tools_prompt,
)
from agents.graph.folded_call import call_model_folded
from agents.graph.status import emit_status
from agents.graph.steering import is_steer, take_steers
from agents.profile import TurnContext
from agents.reply_outcome import MarkedReply, ReplyOutcome, reply_outcome

logger = logging.getLogger(__name__)

ANSWER_NODE: Final = "agent"
"""Name of the node whose LLM tokens are the answer stream the user sees."""

FINAL_ANSWER_INSTRUCTION = (
    "You have used every tool round allowed for this turn. Do not call tools now: answer the "
    "user with what you have found so far, and say briefly what you could not finish."
)


def tool_rounds_this_turn(messages: Sequence[AnyMessage]) -> int:
    """How many tool-calling AI messages follow the last human message (this turn's rounds;
    a steer read during the turn does not start a new one)."""
    rounds = 0
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and not is_steer(message):
            break
        if isinstance(message, AIMessage) and (message.tool_calls or message.invalid_tool_calls):
            rounds += 1
    return rounds


def tools_ran_this_turn(messages: Sequence[AnyMessage]) -> bool:
    """Whether a tool of this turn (after the last human message) ran and answered without
    an error: such a turn is complete even when the model has nothing to add after it (a
    mediator that delivered a message, say), so its empty last reply is not marked."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and not is_steer(message):
            break
        if isinstance(message, ToolMessage) and message.status != "error":
            return True
    return False


async def _emulated_call(
    context: TurnContext,
    prompt: str,
    messages: Sequence[AnyMessage],
    offered: Sequence[BaseTool],
    config: RunnableConfig,
) -> BaseMessage:
    """One call in the prompted tool protocol (:mod:`agents.graph.emulated_tools`): its reply
    arrives whole (a call must not stream as answer text), a strict call read from it becomes a
    real tool call."""
    emit_status(ANSWER_NODE, "tools are emulated (the model takes no tools)", "done")
    sent = fit_to_window(
        [SystemMessage(content=f"{prompt}\n\n{tools_prompt(offered)}"), *as_text_history(messages)],
        context.extra.get(CONTEXT_WINDOW_KEY),
        context.extra.get(PINNED_KEY) or (),
    )
    quiet: RunnableConfig = {**config, "tags": [*(config.get("tags") or ()), "nostream"]}
    response = await call_model_folded(context.model, sent, quiet)
    if isinstance(response, AIMessage) and isinstance(response.content, str):
        call = parse_call(response.content, offered)
        if call is not None:
            return as_tool_call(response, call)
    return response


def make_agent_node(
    tools: Sequence[BaseTool],
) -> Callable[..., Any]:
    """Build the agent node for ``tools`` (and the turn's ``TurnContext.extra_tools``, when
    the graph has tools at all: they run in the same tool node).

    Each call prepends the system prompt, binds the tools while this turn has rounds left, and
    after ``max_tool_rounds`` rounds calls the model without tools and tells it to answer now.
    Every reply is classified (:func:`agents.reply_outcome.reply_outcome`): a marked one
    (refused, filtered, truncated; empty, unless a tool of this turn ran) raises
    :class:`~agents.reply_outcome.MarkedReply` before any of its tool calls can run.
    What it sends is cut to the model's context window (:mod:`agents.context_budget`).
    After a tool round, the steers the user sent into the turn join the call as user messages
    (:mod:`agents.graph.steering`) and stay in the turn's messages.
    """
    tool_list = list(tools)

    async def agent(
        state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[TurnContext]
    ) -> dict[str, list[AnyMessage]]:
        context = runtime.context
        messages: list[AnyMessage] = list(state["messages"])
        steers = take_steers(context.extra, messages)
        messages.extend(steers)
        rounds = tool_rounds_this_turn(messages)
        # A graph with tools runs them in the shared tool node, which runs the extras too.
        offered = [*tool_list, *context.extra_tools] if tool_list else []
        limit_reached = bool(offered) and rounds >= context.max_tool_rounds
        prompt = context.system_prompt
        if limit_reached:
            logger.info(
                "tool-round limit reached, asking for a final answer",
                extra={"tool_rounds": rounds, "conversation_id": context.conversation_id},
            )
            prompt = f"{prompt}\n\n{FINAL_ANSWER_INSTRUCTION}"
            model: Any = context.model
        elif offered and not emulates_tools(context.model):
            model = bind_tools_once(context.model, offered)
        else:
            model = context.model
        if offered and not limit_reached and emulates_tools(context.model):
            response = await _emulated_call(context, prompt, messages, offered, config)
        else:
            # A model that takes no tools reads this turn's earlier calls as text.
            history = as_text_history(messages) if emulates_tools(context.model) else messages
            sent = fit_to_window(
                [SystemMessage(content=prompt), *history],
                context.extra.get(CONTEXT_WINDOW_KEY),
                context.extra.get(PINNED_KEY) or (),
            )
            try:
                # Same as ``model.ainvoke``, but the streamed chunks are merged as they arrive.
                response = await call_model_folded(model, sent, config)
            except Exception as exc:
                if not (offered and not limit_reached and refuses_tools(exc)):
                    raise
                remember_emulation(context.model)
                response = await _emulated_call(context, prompt, messages, offered, config)
        outcome = reply_outcome(response)
        ran = tools_ran_this_turn(messages)
        if outcome.marked and not (outcome.kind == "empty" and ran):
            raise MarkedReply(outcome)  # refused, filtered, cut or empty: no call of it runs
        check_broken_rounds(messages, response)
        if (
            limit_reached
            and isinstance(response, AIMessage)
            and (response.tool_calls or response.invalid_tool_calls)
        ):
            # A model that calls tools anyway must not loop past the limit.
            response = response.model_copy(update={"tool_calls": [], "invalid_tool_calls": []})
            if not outcome.text and not ran:
                raise MarkedReply(ReplyOutcome("empty"))
        return {"messages": [*steers, cast(AnyMessage, response)]}

    return agent
