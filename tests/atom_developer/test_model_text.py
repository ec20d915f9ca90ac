"""A model's draft holding lone surrogates (legal JSON escapes) neither crashes the turn nor
reaches the database or the next request.

The class: any lone surrogate anywhere in what the model writes (its code, its spec, its
notes). The guarantee, held where the draft and fix texts are read (:func:`unicode_text`):
the text is valid Unicode from then on, each broken character shown as U+FFFD, so the fix
prompt can be sent, the reply can be stored, and code broken by it fails with one sentence.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.model_text import REPLACEMENT, unicode_text
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import atom_turn
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, SPEC, answer
from tests.support.fake_openai import FakeOpenAI


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(codec=None, categories=None), max_size=40))
def test_unicode_text_encodes_and_keeps_every_other_character(text: str) -> None:
    fixed = unicode_text(text)
    fixed.encode("utf-8")
    assert len(fixed) == len(text)
    for before, after in zip(text, fixed, strict=True):
        assert after == before or ("\ud800" <= before <= "\udfff" and after == REPLACEMENT)


@pytest.mark.parametrize(
    ("code", "spec", "notes"),
    [
        (GOOD.replace('"""', '"""\ud800', 1), SPEC, "fixed"),
        (GOOD.replace("def check_existence", "def check_\udfffexistence"), SPEC, "fixed"),
        (GOOD, SPEC + "description: 'a \ud83d b'\n", "note \udc00 x"),
    ],
    ids=["docstring", "identifier", "spec-and-notes"],
)
async def test_a_draft_with_lone_surrogates_ends_as_a_stored_reply(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    code: str,
    spec: str,
    notes: str,
) -> None:
    runtime, store = atoms
    fake_openai.script(*[answer(code, spec, notes)] * 4)
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    turn.reply.content.encode("utf-8")
    assert turn.trace["valid"] or turn.trace["stub"]
