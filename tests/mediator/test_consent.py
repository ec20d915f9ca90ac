"""Consent before private words feed the shared space, through the real runtime (ChatOpenAI on
the fake server), the host's seat runner and a real SQLite file.

The class: a post for everyone (a shared post or a statement) that draws on a participant's
private words, by the model's own ``draws_on`` or by the verbatim guard's finding, is posted
only after every participant it draws on has answered at their seat; a refusal posts nothing
and is the tool result the mediator reads; the one asked may post their own words instead; a
participant with no seat cannot be asked, so nothing is posted. The request is shown only to
its participant (and the facilitator). Generated cases: every combination of answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.seat_queue import SeatQueueRunner
from agents.shared_space.consent import ConsentDenied, _decided, pending_consent
from agents.shared_space.seat_view import seat_lines
from agents.shared_space.space import shared_channel
from storage.consents import DECISIONS, ConsentBook, ConsentRefused, ConsentRequest, Decision
from storage.models import Conversation
from storage.seats import SeatBook
from tests.support.fake_openai import Reply, ToolCall

SECRET = "I have about eight thousand dollars of card debt that Alex does not know about."
POST = "Sam would like to plan for an old debt together."


@pytest.fixture
def seats(store: Any, space: Conversation) -> Iterator[SeatBook]:
    book = SeatBook(store.path)
    book.open_seats(space.id, ["Alex", "Sam"])
    yield book
    book.close()


def _consents(store: Any) -> ConsentBook:
    return ConsentBook(store.path)


async def _sam_tells_a_secret_then_the_mediator_posts(
    fake_openai: Any, runner: SeatQueueRunner, seats: SeatBook, space: Conversation, **args: Any
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", {"recipient": "Sam", "content": "Thank you."}, id="p")]),
        Reply("Answered Sam."),
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": POST, **args}, id="c")]),
    )  # fmt: skip
    seats.enqueue(space.id, "Sam", SECRET, shared=False)
    seats.enqueue(space.id, "Alex", "What should we plan for?", shared=True)
    assert await runner.answer_waiting() == 2  # then Alex's turn waits for Sam's consent


async def test_a_refused_consent_posts_nothing_and_the_mediator_reads_the_refusal(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
) -> None:
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    await _sam_tells_a_secret_then_the_mediator_posts(
        fake_openai, runner, seats, space, draws_on=["sam"]
    )
    book = _consents(store)
    try:
        (asked,) = book.waiting(space.id, "Sam")
        assert (asked.participant, asked.text, asked.tool) == ("Sam", POST, "post_to_shared")
        assert book.waiting(space.id, "Alex") == []  # never shown to anyone else
        assert [r.participant for r in book.waiting(space.id, None)] == ["Sam"]
        assert pending_consent(store, space.id) is not None
        assert await runner.answer_waiting() == 0  # still waiting: nothing else runs
        fake_openai.script(Reply("Sam refused; I will not share it."))
        book.answer(asked.call_id, "Sam", "refuse")
    finally:
        book.close()
    await runner.answer_waiting()
    assert pending_consent(store, space.id) is None
    tool_reply = fake_openai.chat_bodies[-1]["messages"][-1]
    assert tool_reply["role"] == "tool"
    assert tool_reply["content"].startswith("Sam refused: nothing was posted.")
    path = store.path_to_root(store.active_leaf(space.id).id)
    assert POST not in [m.content for m in shared_channel(path)]
    assert POST not in [m.content for m in seat_lines(store, space.id, "Alex")]


@pytest.mark.parametrize(
    ("decision", "edited", "posted"),
    [("allow", "", POST), ("edit", "I have a debt I want us to plan for.", None)],
)
async def test_an_allowed_post_goes_out_as_allowed_and_an_edit_as_its_author_wrote_it(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
    decision: str,
    edited: str,
    posted: str | None,
) -> None:
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    await _sam_tells_a_secret_then_the_mediator_posts(
        fake_openai, runner, seats, space, draws_on=["Sam"]
    )
    book = _consents(store)
    try:
        (asked,) = book.waiting(space.id, "Sam")
        fake_openai.script(Reply("Posted."))
        book.answer(asked.call_id, "Sam", decision, edited)
    finally:
        book.close()
    await runner.answer_waiting()
    for name in ("Alex", "Sam"):
        shared = [m.content for m in seat_lines(store, space.id, name) if m.author == "Mediator"]
        assert (posted or edited) in shared


async def test_a_verbatim_quote_asks_its_author_and_a_participant_without_a_seat_is_never_posted(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
) -> None:
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", {"recipient": "Sam", "content": "Noted."}, id="p")]),
        Reply("Answered."),
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": f"Sam said: {SECRET}"}, id="q")]),
    )  # fmt: skip
    seats.enqueue(space.id, "Sam", SECRET, shared=False)
    seats.enqueue(space.id, "Alex", "Anything new?", shared=True)
    await runner.answer_waiting()
    book = _consents(store)
    try:
        assert [r.participant for r in book.waiting(space.id, None)] == ["Sam"]  # the guard counts
    finally:
        book.close()
    seats.close_space(space.id)  # nobody seated: a declaration cannot be asked
    fake_openai.script(
        Reply(tool_calls=[ToolCall("propose_statement", {"topic": "debt", "text": POST, "draws_on": ["Sam"]}, id="s")]),
        Reply("Not posted."),
    )  # fmt: skip
    user = store.add_message(space.id, "user", "Next?", None, meta={"sender": "Alex"})
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=space.id, user_message_id=user.id, model=openai_model()
        )
    ]
    errors = [getattr(e, "error", None) for e in events if type(e).__name__ == "ToolFinished"]
    assert errors
    assert errors[0] is not None
    assert "Sam has no seat here to allow it" in errors[0]


def _request(name: str, decision: str | None, edited: str = "") -> ConsentRequest:
    return ConsentRequest(
        "c", "space", name, "post_to_shared", POST, cast(Decision | None, decision), edited,
        datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(DECISIONS), st.text(min_size=1, max_size=10)),
        min_size=1,
        max_size=3,
    )
)
def test_words_are_posted_only_as_every_participant_asked_allowed_them(
    answers: list[tuple[str, str]],
) -> None:
    requests = [
        _request(f"P{i}", decision, edited if decision == "edit" else "")
        for i, (decision, edited) in enumerate(answers)
    ]
    decisions = [d for d, _ in answers]
    try:
        posted = _decided(requests, POST)
    except ConsentDenied:
        assert "refuse" in decisions or ("edit" in decisions and len(answers) > 1)
        return
    assert "refuse" not in decisions
    if "edit" in decisions:
        assert len(answers) == 1
        assert posted == answers[0][1]
    else:
        assert posted == POST


async def test_a_pause_abandoned_by_a_later_message_withdraws_its_question(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
) -> None:
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    await _sam_tells_a_secret_then_the_mediator_posts(
        fake_openai, runner, seats, space, draws_on=["Sam"]
    )
    fake_openai.script(Reply("Hello Alex."))
    paused = pending_consent(store, space.id)
    assert paused is not None
    leaf = store.active_leaf(space.id)
    later = store.add_message(space.id, "user", "Never mind.", leaf.id, meta={"sender": "Alex"})
    async for _ in runtime.run_turn(
        conversation_id=space.id, user_message_id=later.id, model=openai_model()
    ):
        pass
    await runner.answer_waiting()
    book = _consents(store)
    try:
        assert book.waiting(space.id, "Sam") == []  # no seat shows it any more
        (asked,) = book.for_call(paused.call_id)
        with pytest.raises(ConsentRefused, match="answered already or is not yours"):
            book.answer(asked.call_id, "Sam", "allow")
    finally:
        book.close()
