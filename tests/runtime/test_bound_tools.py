"""A model call binds exactly the tools it offers, though bindings are reused
(:mod:`agents.graph.bound_tools`): for any sequence of calls over models and tool lists (new
tool objects with the same names, other orders, subsets, models switched between), the binding
used names the offered tools in order, and a binding is made again only for a model and tool
list not bound recently."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

import agents.graph.bound_tools as bound_tools
from agents.graph.bound_tools import bind_tools_once


def _tool(name: str) -> StructuredTool:
    def run(text: str) -> str:
        return text

    return StructuredTool.from_function(run, name=name, description=f"The {name} tool.")


def _names(binding: Any) -> list[str]:
    return [tool["function"]["name"] for tool in binding.kwargs["tools"]]


POOL = [_tool(f"tool_{n}") for n in range(4)]
SAME_NAMES = [_tool(f"tool_{n}") for n in range(4)]
"""Other tool objects with the pool's names: a binding of the pool's is not theirs."""
MODELS = [ChatOpenAI(api_key=SecretStr("k"), model=f"m{n}") for n in range(6)]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(MODELS) - 1),
            st.lists(st.tuples(st.booleans(), st.integers(0, 3)), max_size=4),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_a_call_binds_exactly_its_tools(calls: list[tuple[int, list[tuple[bool, int]]]]) -> None:
    bound_tools._bindings.clear()
    made: list[tuple[int, tuple[int, ...]]] = []
    for model_index, picks in calls:
        model = MODELS[model_index]
        tools = [(SAME_NAMES if other else POOL)[n] for other, n in picks]
        before = len(bound_tools._bindings.get(id(model), (None, []))[1])
        binding = bind_tools_once(model, tools)
        assert binding.bound is model
        assert _names(binding) == [tool.name for tool in tools]
        assert bind_tools_once(model, tools) is binding  # asked again at once: reused
        identities = (model_index, tuple(id(tool) for tool in tools))
        after = len(bound_tools._bindings[id(model)][1])
        if identities in made[-1:]:
            assert after == before  # the same call twice in a row binds once
        made.append(identities)
    assert len(bound_tools._bindings) <= bound_tools.MODELS_KEPT
