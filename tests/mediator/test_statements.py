"""Statements through the real runtime (ChatOpenAI on the fake server, a real SQLite file):
``propose_statement`` posts a version to everyone, each participant's answer is their own row,
``revise_statement`` posts the next version later on the same branch linked to the one it
revises, and a statement is agreed exactly when every participant agrees with a version.

The class tested with generated cases: for every history of versions and answers, ``agreed``
names the newest version every participant answered ``agree``, and none when there is none;
nothing in a record (what the model or an import writes) can make one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ToolFinished
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.seat_view import seat_lines
from agents.shared_space.statements import (
    Statement,
    StatementVersion,
    agreed_mark,
    statement_board,
)
from storage.models import Conversation
from storage.statement_answers import ANSWERS, Answer, AnswerBook, AnswerValue
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply, ToolCall

BUDGET = "We put 500 a month into savings before anything else."
REVISED = "We put 400 a month into savings and 100 toward the trip."


async def test_a_statement_round_proposal_critique_revision_and_agreement(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("propose_statement", {"topic": "monthly budget", "text": BUDGET}, id="p")
            ]
        ),
        Reply("Proposed S1."),
    )
    await say(runtime, store, space, model, UserMessageEvent(sender="Alex", content="Budget?"))
    (s1,) = statement_board(store, space.id, "Sam")
    assert (s1.key, s1.topic, s1.latest.number, s1.latest.text) == (
        "S1",
        "monthly budget",
        1,
        BUDGET,
    )
    for name in ("Alex", "Sam"):  # both seats read the statement in the shared channel
        (line,) = [x for x in seat_lines(store, space.id, name) if x.statement]
        assert (line.statement, line.content, line.visibility) == (
            "S1 v1 · monthly budget",
            BUDGET,
            "shared",
        )

    book = AnswerBook(store.path)
    try:
        book.answer(space.id, s1.latest.record_id, "Alex", "agree")
        book.answer(space.id, s1.latest.record_id, "Sam", "partly", "The trip matters to me.")
    finally:
        book.close()
    (by_alex,) = statement_board(store, space.id, "Alex")
    assert [
        (a.participant, a.answer, a.critique) for a in by_alex.answers[s1.latest.record_id]
    ] == [
        ("Alex", "agree", ""),
        ("Sam", "partly", None),  # all answered: the answer shows; the critique is Sam's
    ]
    assert by_alex.agreed is None

    fake_openai.script(
        Reply(tool_calls=[ToolCall("revise_statement", {"statement": "s1", "text": REVISED}, id="r")]),
        Reply("Revised S1."),
    )  # fmt: skip
    events = await say(
        runtime, store, space, model, UserMessageEvent(sender="Sam", content="I answered.")
    )
    (finished,) = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.error is None
    system = fake_openai.chat_bodies[-2]["messages"][0]["content"]
    assert "S1 (monthly budget), version 1" in system  # the mediator reads every answer,
    assert '- Sam: partly; critique: "The trip matters to me." [private: Sam → mediator]' in system

    (s1,) = statement_board(store, space.id, None)
    v1, v2 = s1.versions
    assert (v2.number, v2.revises, v2.text) == (2, v1.record_id, REVISED)
    path_ids = [r.id for r in store.path_to_root(store.active_leaf(space.id).id)]
    assert path_ids.index(v1.record_id) < path_ids.index(v2.record_id)  # later, same branch
    assert s1.answers[v1.record_id]  # the answers to v1 stay on the path

    book = AnswerBook(store.path)
    try:
        book.answer(space.id, v2.record_id, "Alex", "agree")
        assert statement_board(store, space.id, None)[0].agreed is None  # Sam has not yet
        book.answer(space.id, v2.record_id, "Sam", "agree")
    finally:
        book.close()
    for viewer in (None, "Alex", "Sam", "shared"):
        agreed = statement_board(store, space.id, viewer)[0].agreed
        assert agreed is not None
        assert (agreed.number, agreed.record_id) == (2, v2.record_id)


async def test_revising_a_statement_that_is_not_there_is_an_error_the_model_reads(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("revise_statement", {"statement": "S7", "text": "x y"}, id="r")]),
        Reply("Nothing to revise."),
    )  # fmt: skip
    events = await say(
        runtime, store, space, openai_model(), UserMessageEvent(sender="Alex", content="Hi")
    )
    (finished,) = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.error is not None
    assert "not a statement of this conversation" in finished.error
    assert statement_board(store, space.id, None) == []


PEOPLE = ("Alex", "Sam", "Kim")
START = datetime(2026, 1, 1, tzinfo=UTC)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=4),
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=3), st.sampled_from(PEOPLE), st.sampled_from(ANSWERS)
        ),
        max_size=20,
    ),
)
def test_agreed_is_the_newest_version_every_participant_agreed_with(
    versions: int, given_answers: list[tuple[int, str, str]]
) -> None:
    statement = Statement("S1", "topic")
    for number in range(1, versions + 1):
        statement.versions.append(
            StatementVersion(f"v{number}", "S1", "topic", "text", number, None, START)
        )
    latest: dict[tuple[str, str], Answer] = {}
    for step, (index, person, value) in enumerate(given_answers):
        record = f"v{index % versions + 1}"
        latest[(record, person)] = Answer(
            record,
            person,
            cast(AnswerValue, value),
            "",
            False,
            START + timedelta(minutes=step),
        )
    answers = list(latest.values())
    mark = agreed_mark(statement, PEOPLE, answers)
    agreeing = {
        v.number
        for v in statement.versions
        if all(latest.get((v.record_id, p)) and latest[(v.record_id, p)].answer == "agree" for p in PEOPLE)
    }  # fmt: skip
    if not agreeing:
        assert mark is None
        return
    assert mark is not None
    assert mark.number == max(agreeing)
    assert mark.at == max(a.answered_at for a in answers if a.record_id == mark.record_id)


async def test_statements_proposed_in_later_turns_take_the_next_key(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    for turn, topic in enumerate(("budget", "holiday", "debt")):
        fake_openai.script(
            Reply(tool_calls=[
                ToolCall("propose_statement", {"topic": topic, "text": f"On {topic}."}, id=f"a{turn}"),
                ToolCall("propose_statement", {"topic": f"{topic} 2", "text": "More."}, id=f"b{turn}"),
            ]),
            Reply("Proposed."),
        )  # fmt: skip
        await say(runtime, store, space, model, UserMessageEvent(sender="Alex", content="Go"))
    keys = [s.key for s in statement_board(store, space.id, None)]
    assert keys == ["S1", "S2", "S3", "S4", "S5", "S6"]
