"""A closing reply (the mediator's answer without a delivery tool, which goes back to whoever
spoke) passes the same guard as every delivery: one that repeats another participant's private
words reaches no seat and the turn ends marked with one sentence; one that repeats only the
speaker's own words, or none, goes to the speaker.

Generated cases call :func:`addressed_reply` on a real SQLite store (any window of at least
eight words of someone's private message, re-spaced and re-cased, inside any surrounding
text); the concrete case runs the real runtime on the fake OpenAI-compatible server and reads
each participant's view through the store's viewer filter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from agents.profile import TurnContext
from agents.profiles.mediator.closing_reply import HeldReply, addressed_reply
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.guard import RUN_WORDS
from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply

PEOPLE = ("Alex", "Sam", "Kim")
SECRET = "I lost our savings at the casino last spring and I feel ashamed."
VOCABULARY = [
    "we",
    "moved",
    "the",
    "money",
    "from",
    "our",
    "joint",
    "account",
    "to",
    "cover",
    "debts",
    "my",
    "brother",
    "owed",
    "the",
    "bank",
    "last",
    "winter",
    "before",
    "anyone",
    "noticed",
    "it",
    "was",
    "gone",
]
OTHER_WORDS = st.lists(st.sampled_from(["calm", "plan", "together", "budget", "talk"]), max_size=6)


def _context(store: SqliteConversationStore, space: Conversation, said_id: str, sender: str) -> Any:
    return TurnContext(
        model=None,  # type: ignore[arg-type]  # the guard reads no model
        conversation_id=space.id,
        user_message_id=said_id,
        store=store,
        system_prompt="",
        sender=sender,
        participants=PEOPLE,
    )


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    owner=st.sampled_from(PEOPLE),
    speaker=st.sampled_from(PEOPLE),
    start=st.integers(0, len(VOCABULARY) - RUN_WORDS),
    extra=st.integers(0, 4),
    upper=st.booleans(),
    joiner=st.sampled_from([" ", "  ", ", ", " - ", "\n"]),
    before=OTHER_WORDS,
    after=OTHER_WORDS,
)
def test_a_closing_reply_repeating_someone_else_s_private_words_is_never_addressed(
    tmp_path: Path,
    owner: str,
    speaker: str,
    start: int,
    extra: int,
    upper: bool,
    joiner: str,
    before: list[str],
    after: list[str],
) -> None:
    window = VOCABULARY[start : start + RUN_WORDS + extra]
    quoted = joiner.join(w.upper() if upper else w for w in window)
    text = " ".join([*before, quoted, *after])
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": list(PEOPLE)})
        private = UserMessageEvent(sender=owner, content=" ".join(VOCABULARY) + ".")
        first = store.add_message(space.id, "user", private.content, None, private.record_meta())
        asking = UserMessageEvent(sender=speaker, content="What happened?")
        said = store.add_message(space.id, "user", asking.content, first.id, asking.record_meta())
        context = _context(store, space, said.id, speaker)
        messages = [HumanMessage(private.content), HumanMessage(asking.content)]
        reply = AIMessage(content=text)
        if owner == speaker:
            addressed = addressed_reply(reply, messages, context)
            assert addressed.additional_kwargs["record_meta"]["visibility"] == speaker
        else:
            with pytest.raises(HeldReply) as held:
                addressed_reply(reply, messages, context)
            assert all(name not in held.value.user_message for name in PEOPLE)
            assert " ".join(window[:3]) not in held.value.user_message.lower()


async def test_a_plain_answer_quoting_sam_reaches_no_seat_and_the_turn_is_marked(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(Reply("Thank you, Sam."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SECRET))
    fake_openai.script(Reply(f"Sam told me this: {SECRET.lower()}"))
    events = await say(
        runtime, store, space, model, UserMessageEvent(sender="Alex", content="What did Sam say?")
    )

    (error,) = [e for e in events if isinstance(e, RunError)]
    assert error.error.code == "reply_held"
    leaf = store.active_leaf(space.id)
    for viewer in ("Alex", "shared"):
        seen = store.path_to_root(leaf.id, viewer)
        assert all("casino" not in record.content for record in seen)
    assert store.search("casino", viewer="Alex") == []
    fake_openai.script(Reply("Let us talk about the savings together."))
    await say(
        runtime, store, space, model, UserMessageEvent(sender="Alex", content="What did Sam say?")
    )
    leaf = store.active_leaf(space.id)
    alex_reads = [r.content for r in store.path_to_root(leaf.id, "Alex")]
    assert alex_reads[-1] == "Let us talk about the savings together."
