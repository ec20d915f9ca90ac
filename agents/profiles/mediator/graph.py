"""The mediator graph: ``agent → should_continue → tools | end``, ``tools → agent``.

The agent node is the shared one (tools bound to the turn's model, the tool-round limit),
given a system prompt that adds who is in the space and who is speaking now, and it fills
the ``SpaceState`` fields: ``input``, ``action_to_execute`` (the parsed actions, or
None), ``tool_output`` and the accumulated ``steps``. ``should_continue`` routes on
``action_to_execute``: the tools when there are actions to execute, else the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, Literal

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import StateGraph
from langgraph.runtime import Runtime

from agents.graph import build_react_graph, make_agent_node
from agents.graph.broken_calls import has_broken_calls
from agents.graph.tool_node import message_text
from agents.profile import Profile, TurnContext
from agents.profiles.mediator.closing_reply import addressed_reply
from agents.profiles.mediator.state import SpaceState
from agents.shared_space import DEFAULT_PARTICIPANTS
from agents.shared_space.actions import action_from_tool_call
from agents.shared_space.agenda import agenda_for, agenda_notes
from agents.shared_space.events import SHARED
from agents.shared_space.space import names_in_words
from agents.shared_space.statements import mediator_notes, statement_board
from storage.store import NotFoundError, StorageError

PROMPT_FILE: Final = Path(__file__).parent / "prompts" / "mediator.md"
SYSTEM_PROMPT: Final[str] = PROMPT_FILE.read_text(encoding="utf-8")
"""The mediator's role and principles (the shipped prompt; a user's config may override it)."""

TOOLS_NODE = "tools"


def space_prompt(
    base: str, participants: Sequence[str], sender: str | None, channel: str | None
) -> str:
    """``base`` plus the facts of this space and turn (the ``Participants:`` line is also
    what the offline model reads)."""
    lines = ["", "## This space", f"Participants: {', '.join(participants)}"]
    if sender:
        others = [p for p in participants if p != sender]
        if channel == SHARED:
            where = "in the shared space, so everyone has read it"
        else:
            hidden = names_in_words(others) if others else "nobody else"
            where = f"privately to you ({hidden} cannot see it)"
        lines.append(f"Now speaking: {sender}, {where}.")
    return base.rstrip() + "\n" + "\n".join(lines) + "\n"


def _statement_notes(context: TurnContext, people: Sequence[str]) -> str:
    """The branch's agenda, statements and every answer to them, as the mediator reads them."""
    try:
        board = statement_board(
            context.store, context.conversation_id, None, context.user_message_id
        )
        agenda = agenda_for(
            context.store, context.conversation_id, None, board, context.user_message_id
        )
    except StorageError:
        return ""
    return agenda_notes(agenda) + mediator_notes(board, people)


def _channel_of(context: TurnContext) -> str | None:
    try:
        record = context.store.get_message(context.user_message_id)
    except NotFoundError:
        return None
    return record.meta.get("visibility")


def _last_round(messages: Sequence[AnyMessage]) -> tuple[AIMessage | None, list[ToolMessage]]:
    """The last AI message with tool calls and the tool results that answered it."""
    results: list[ToolMessage] = []
    for message in reversed(messages):
        if isinstance(message, ToolMessage):
            results.append(message)
        elif isinstance(message, AIMessage) and message.tool_calls:
            return message, list(reversed(results))
        else:
            break
    return None, []


def _action_of(call: Mapping[str, Any]) -> dict[str, Any]:
    action = action_from_tool_call(dict(call))
    return action.model_dump() if action is not None else {"type": call["name"], **call["args"]}


def make_mediator_agent(tools: Sequence[Any]) -> Any:
    """The shared agent node, wrapped to speak for the space and fill ``SpaceState``."""
    shared_agent = make_agent_node(tools)

    async def agent(
        state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[TurnContext]
    ) -> dict[str, Any]:
        context = runtime.context
        people = tuple(context.participants) or DEFAULT_PARTICIPANTS
        prompt = space_prompt(context.system_prompt, people, context.sender, _channel_of(context))
        prompt += _statement_notes(context, people)
        inner = runtime.override(context=replace(context, system_prompt=prompt))
        update = await shared_agent(state, config, inner)
        messages = state["messages"]
        response = addressed_reply(update["messages"][-1], messages, context)
        update = {**update, "messages": [*update["messages"][:-1], response]}
        calls = response.tool_calls if isinstance(response, AIMessage) else []
        called, results = _last_round(messages)
        by_id = {r.tool_call_id: r for r in results}
        steps = [
            {"action": _action_of(call), "observation": message_text(by_id[call["id"]].content)}
            for call in (called.tool_calls if called else [])
            if call["id"] in by_id
        ]
        human = [m for m in messages if isinstance(m, HumanMessage)][-1:]
        return {
            **update,
            "input": human,
            "action_to_execute": [_action_of(call) for call in calls] or None,
            "tool_output": "\n".join(message_text(r.content) for r in results) or None,
            "steps": steps,
        }

    return agent


def should_continue(state: Mapping[str, Any]) -> Literal["tools", "__end__"]:
    """Execute the chosen actions if there are any (or answer broken calls), else end."""
    messages = state.get("messages") or []
    broken = bool(messages) and has_broken_calls(messages[-1])
    return "tools" if state.get("action_to_execute") or broken else "__end__"


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    """The uncompiled mediator graph (the shared loop with the mediator's agent and router);
    the runtime compiles it once with the checkpointer."""
    tools = profile.make_tools()
    return build_react_graph(
        SpaceState,
        tools,
        tool_node_name=TOOLS_NODE,
        agent=make_mediator_agent(tools),
        route_after_agent=should_continue,
    )
