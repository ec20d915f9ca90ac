"""A model's draft is valid only as the whole twin: the three atoms and their spec.

The class: a draft that defines some of the atoms (the trivial ``check_existence`` alone, say)
or gives no spec passed every check that ran, because the checks of what it lacks never ran;
the reply then called it a valid atom. The guarantee, held by ``avalidate(whole=True)`` (how
the graph checks every draft of the model and the stub): every part a draft lacks is an error,
so it is valid exactly when it defines all three atoms, gives a spec and passes. A user's own
file is still checked on the atoms it defines.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.stub import STUB_CODE, stub_spec
from agents.profiles.atom_developer.validation import avalidate
from agents.profiles.atom_developer.validation.static_check import ATOM_NAMES
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import atom_turn
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, answer
from tests.atom_developer.test_graph_provider import SPEC as GOOD_SPEC
from tests.support.fake_openai import FakeOpenAI, Reply


def only(atoms: set[str]) -> str:
    """The stub's code keeping only ``atoms`` of its three atoms."""
    tree = ast.parse(STUB_CODE)
    tree.body = [
        node for node in tree.body if not isinstance(node, ast.FunctionDef) or node.name in atoms
    ]
    return ast.unparse(tree)


SPEC = stub_spec("error codes")


@settings(max_examples=16, deadline=None)
@given(st.sets(st.sampled_from(ATOM_NAMES), min_size=1), st.booleans())
async def test_a_whole_draft_is_valid_exactly_with_all_three_atoms_and_a_spec(
    atoms: set[str], with_spec: bool
) -> None:
    code = only(atoms)
    spec = SPEC if with_spec else None
    whole = await avalidate(code, spec, "", whole=True)
    assert whole.valid is (atoms == set(ATOM_NAMES) and with_spec), whole.errors
    if not whole.valid:
        assert whole.errors
    if "validate_logic" in atoms or not with_spec:  # a user's file: the atoms it defines
        assert (await avalidate(code, spec, "")).valid


async def test_a_provider_draft_with_one_atom_and_no_spec_is_not_answered_as_valid(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    partial = only({"check_existence"})
    fake_openai.script(*[Reply(content=f"```python\n{partial}\n```\nAll tests passed.")] * 4)
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    assert len(fake_openai.chat_requests) == 4  # the draft and three fixes, none valid
    assert turn.trace["stub"]
    assert "defines no extract_context" in turn.reply.content


async def test_a_provider_draft_of_the_whole_twin_passes_at_once(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(answer(GOOD, GOOD_SPEC))
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())
    assert turn.trace["valid"]
    assert not turn.trace["stub"]
