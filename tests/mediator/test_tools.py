"""The delivery tools on their own, through a ToolNode with a real TurnContext."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import START, StateGraph
from langgraph.prebuilt import ToolNode

from agents.graph import AgentState
from agents.profile import TurnContext
from agents.profiles.mediator.tools import make_tools


async def run_calls(store: Any, calls: list[dict[str, Any]], participants: tuple[str, ...]) -> Any:
    builder = StateGraph(AgentState, context_schema=TurnContext)
    builder.add_node("tools", ToolNode(make_tools()))
    builder.add_edge(START, "tools")
    context = TurnContext(
        model=None,  # type: ignore[arg-type]
        conversation_id="c",
        user_message_id="u",
        store=store,
        system_prompt="",
        participants=participants,
    )
    state = await builder.compile().ainvoke(
        {"messages": [AIMessage(content="", tool_calls=calls)]}, context=context
    )
    return state["messages"][1:]


async def test_results_carry_the_delivery_record_meta(store: Any) -> None:
    private, shared = await run_calls(
        store,
        [
            {"id": "1", "name": "reply_privately", "args": {"recipient": "KIM", "content": " Hi "}},
            {"id": "2", "name": "post_to_shared", "args": {"content": "All: hello"}},
        ],
        ("Jordan", "Kim"),
    )
    assert private.content == "Delivered privately to Kim; only Kim can read it."
    assert private.artifact == {
        "record_meta": {
            "visibility": "Kim",
            "recipient": "Kim",
            "delivered_by": "reply_privately",
            "delivered_content": "Hi",
        }
    }
    assert shared.content == "Posted to the shared space; Jordan and Kim can read it."
    assert shared.artifact["record_meta"]["visibility"] == "shared"


async def test_bad_calls_are_error_results(store: Any) -> None:
    unknown, everyone, empty = await run_calls(
        store,
        [
            {"id": "1", "name": "reply_privately", "args": {"recipient": "Zed", "content": "x"}},
            {
                "id": "2",
                "name": "reply_privately",
                "args": {"recipient": "everyone", "content": "x"},
            },
            {"id": "3", "name": "post_to_shared", "args": {"content": "  "}},
        ],
        (),
    )
    assert unknown.status == everyone.status == empty.status == "error"
    assert "the participants are Alex and Sam" in unknown.content
    assert everyone.content.endswith("Use post_to_shared to address everyone.")
    assert empty.content == "The message is empty; write what you want to say."
