"""An approval is keyed by what the server said a tool is: any change of its name, its
description or its input schema is another identity, so an earlier answer does not cover it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.types import Tool

from agents.graph.approval import ApprovalQuestion
from agents.mcp_servers.tools import tool_identity

schemas = st.dictionaries(
    st.text(max_size=5), st.one_of(st.text(max_size=5), st.integers()), max_size=3
).map(lambda props: {"type": "object", "properties": props})
tools = st.tuples(st.text(min_size=1, max_size=10), st.text(max_size=20), schemas)


def _tool(fields: tuple[str, str, dict[str, Any]]) -> Tool:
    name, description, schema = fields
    return Tool(name=name, description=description, inputSchema=schema)


@settings(max_examples=150, deadline=None)
@given(first=tools, second=tools)
def test_two_listings_share_an_identity_only_when_they_say_the_same(
    first: tuple[str, str, dict[str, Any]], second: tuple[str, str, dict[str, Any]]
) -> None:
    same = tool_identity(_tool(first)) == tool_identity(_tool(second))
    assert same == (first == second)


def test_the_approval_key_names_the_identity() -> None:
    question = ApprovalQuestion("lookup", "tickets", {}, "call-1", "abc")
    assert question.key == "tickets/lookup@abc"
    assert ApprovalQuestion.of(question.as_value()) == question
