"""The strict reader of emulated tool calls, over generated model texts.

The class: any text a model writes. A call comes out only when the whole reply is one JSON
object ``{"tool", "arguments"}`` (bare, or in one ```json fence), naming an offered tool, with
arguments its schema accepts as given (no coercion); everything else is answer text. And every
such reply does come out as its call.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool, StructuredTool, tool
from pydantic import BaseModel, ValidationError

from agents.graph.emulated_tools import as_tool_call, parse_call


@tool
def read_file(path: str, start_line: int = 1) -> str:
    """Read a file."""
    return path


@tool
def reply_privately(recipient: str, content: str) -> str:
    """Send one participant a private message."""
    return content


SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["query"],
    "additionalProperties": False,
}


async def _search(**kwargs: Any) -> str:
    return str(kwargs)


search = StructuredTool(
    name="search",
    description="Search (an MCP tool's JSON schema).",
    args_schema=SEARCH_SCHEMA,
    coroutine=_search,
)
TOOLS: list[BaseTool] = [read_file, reply_privately, search]

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
_ARGS = st.one_of(
    st.fixed_dictionaries({"path": st.text(max_size=10)}, optional={"start_line": st.integers()}),
    st.fixed_dictionaries({"recipient": st.text(max_size=6), "content": st.text(max_size=10)}),
    st.dictionaries(
        st.sampled_from(["path", "start_line", "recipient", "content", "x"]), _JSON, max_size=3
    ),
    _JSON,
)
_NAME = st.one_of(
    st.sampled_from(["read_file", "reply_privately", "search", "delete_all", ""]), _JSON
)
_OBJECT = st.one_of(
    st.builds(lambda name, args: {"tool": name, "arguments": args}, _NAME, _ARGS),
    st.builds(
        lambda name, args, extra: {"tool": name, "arguments": args, **extra},
        _NAME,
        _ARGS,
        st.dictionaries(st.text(max_size=4), _JSON, max_size=2),
    ),
    st.dictionaries(st.text(max_size=6), _JSON, max_size=3),
)


def _wrap(text: str, how: str, noise: str) -> str:
    return {
        "bare": text,
        "spaced": f"\n  {text}\n",
        "json fence": f"```json\n{text}\n```",
        "bare fence": f"```\n{text}\n```",
        "python fence": f"```python\n{text}\n```",
        "prefixed": f"{noise} {text}",
        "suffixed": f"{text} {noise}",
        "thinking": f"<think>{noise}</think>{text}",
        "cut": text[: len(text) // 2],
    }[how]


_TEXT = st.one_of(
    st.text(max_size=40),
    st.builds(
        _wrap,
        _OBJECT.map(json.dumps),
        st.sampled_from(
            [
                "bare",
                "spaced",
                "json fence",
                "bare fence",
                "python fence",
                "prefixed",
                "suffixed",
                "thinking",
                "cut",
            ]
        ),
        st.text(min_size=1, max_size=10).filter(lambda s: s.strip() != ""),
    ),
)


def _valid(name: Any, args: Any) -> bool:
    chosen = next((t for t in TOOLS if t.name == name), None)
    if chosen is None or not isinstance(args, dict):
        return False
    schema = chosen.tool_call_schema
    if isinstance(schema, dict):  # checked here by hand, apart from the code under test
        limit = args.get("limit", 0)
        return (
            set(args) <= {"query", "limit"}
            and isinstance(args.get("query"), str)
            and isinstance(limit, int)
            and not isinstance(limit, bool)
        )
    assert isinstance(schema, type)
    assert issubclass(schema, BaseModel)
    try:
        schema.model_validate(args, strict=True)
    except ValidationError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_only_a_whole_reply_naming_an_offered_tool_with_valid_arguments_is_a_call(
    text: str,
) -> None:
    call = parse_call(text, TOOLS)
    if call is None:
        return
    assert _valid(call["name"], call["args"])
    message = as_tool_call(AIMessage(content=text), call)
    (made,) = message.tool_calls
    assert (made["name"], made["args"]) == (call["name"], call["args"])
    assert made["id"]
    assert message.content == ""


@settings(max_examples=150, deadline=None)
@given(obj=_OBJECT, how=st.sampled_from(["bare", "spaced", "json fence", "bare fence"]))
def test_every_well_formed_call_is_read_as_exactly_that_call(obj: dict[str, Any], how: str) -> None:
    call = parse_call(_wrap(json.dumps(obj), how, "x"), TOOLS)
    well_formed = set(obj) == {"tool", "arguments"} and _valid(obj["tool"], obj["arguments"])
    assert (call is not None) == well_formed
    if call is not None:
        assert call == {"name": obj["tool"], "args": obj["arguments"]}
