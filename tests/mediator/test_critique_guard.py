"""A critique is its author's private words: the guard holds a post or a private reply that
repeats one, as it holds what a participant told the mediator privately.

The class, with generated critiques and posts that embed them (re-cased, between other words):
a post for everyone or a private reply to another participant that repeats an unshared
critique is held; the author may be told their own words; a critique its author shared is
everyone's. Through the real runtime (ChatOpenAI on the fake server) for the reported case.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.mediator.tool_checks import held
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ToolFinished
from agents.shared_space.events import SHARED, UserMessageEvent
from agents.shared_space.space import new_space
from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import AnswerBook
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply, ToolCall

CRITIQUE = "I cannot agree while my sister still needs our help every month"


def _critique(store: SqliteConversationStore, space: str, critique: str, shared: bool) -> str:
    """A statement answered by Sam with ``critique``; returns the user record's id."""
    user = store.add_message(space, "user", "Budget?", None, meta={"sender": "Alex"})
    statement = store.add_message(
        space, "tool", "Statement posted.", user.id,
        meta={"name": "propose_statement", "kind": "statement", "visibility": "shared",
              "statement": "S1", "topic": "budget", "delivered_content": "We save."},
    )  # fmt: skip
    book = AnswerBook(store.path)
    try:
        book.answer(space, statement.id, "Sam", "disagree", critique, shared=shared)
    finally:
        book.close()
    return statement.id


async def test_a_shared_post_repeating_a_critique_is_held(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    _critique(store, space.id, CRITIQUE, shared=False)
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": f"Sam says: {CRITIQUE}."}, id="x")]),
        Reply("Held."),
    )  # fmt: skip
    events = await say(
        runtime, store, space, openai_model(), UserMessageEvent(sender="Alex", content="And?")
    )
    (finished,) = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.error is not None
    assert finished.error.startswith("Shared post held: it repeated Sam's private words")


words = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8), min_size=8, max_size=12
)


@settings(max_examples=25, deadline=None)
@given(words, st.sampled_from(("Noted:", "", "So")), st.booleans(), st.booleans())
def test_a_critique_reaches_nobody_but_its_author_until_shared(
    critique_words: list[str], prefix: str, shouting: bool, shared: bool
) -> None:
    critique = " ".join(critique_words)
    quoted = critique.upper() if shouting else critique
    post = f"{prefix} {quoted} ok".strip()
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteConversationStore(Path(folder) / "weaver.db")
        try:
            space = new_space(store, ("Alex", "Sam"))
            leaf = _critique(store, space.id, critique, shared)
            context = SimpleNamespace(
                store=store, conversation_id=space.id, participants=("Alex", "Sam"),
                user_message_id=leaf,
            )  # fmt: skip
            runtime: Any = SimpleNamespace(context=context, state={}, tool_call_id=None)
            seen = {to: held(post, runtime, to) for to in (SHARED, "Alex", "Sam")}
        finally:
            store.close()
    assert seen["Sam"] == []  # their own words
    assert seen[SHARED] == ([] if shared else ["Sam"])
    assert seen["Alex"] == ([] if shared else ["Sam"])
