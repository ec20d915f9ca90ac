"""The agenda and the fairness meter: ``set_agenda`` through the real runtime (ChatOpenAI on
the fake server, a real SQLite file), each topic's state from the statements, never from the
model's words, and each participant's share of the words written.

The classes, with generated cases: a topic is ``agreed`` exactly when a statement on it is
agreed, ``statement proposed`` when one is open, else ``open``; the meter's counts are every
participant's words on the branch, and nobody else's.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ToolFinished
from agents.shared_space.agenda import (
    agenda_for,
    clean_topics,
    meter_line,
    topic_states,
    word_shares,
)
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.statements import AgreedMark, Statement, StatementVersion, statement_board
from storage.models import Conversation, MessageRecord
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply, ToolCall

START = datetime(2026, 1, 1, tzinfo=UTC)


async def test_the_agenda_is_set_for_everyone_and_told_to_the_mediator_with_states(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("set_agenda", {"topics": ["monthly budget", " holiday ", "Holiday"]}, id="a"),
                ToolCall("propose_statement", {"topic": "Monthly  budget", "text": "We save.",
                                               "reflects": ["alex", "Sam"]}, id="p"),
            ]
        ),
        Reply("Agenda set, proposed."),
        Reply("Nothing more."),
    )  # fmt: skip
    events = await say(runtime, store, space, model, UserMessageEvent(sender="Alex", content="Hi"))
    assert [e.error for e in events if isinstance(e, ToolFinished)] == [None, None]
    board = statement_board(store, space.id, "Sam")
    agenda = agenda_for(store, space.id, "Sam", board)
    assert [(a.topic, a.state) for a in agenda] == [
        ("monthly budget", "statement proposed"),
        ("holiday", "open"),
    ]
    assert board[0].latest.reflects == ("Alex", "Sam")
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content="Ok."))
    system = fake_openai.chat_bodies[-1]["messages"][0]["content"]
    assert "- monthly budget: statement proposed" in system
    assert "- holiday: open" in system
    shares = word_shares(store.path_to_root(store.active_leaf(space.id).id), ("Alex", "Sam"))
    assert shares == {"Alex": 1, "Sam": 1}
    assert meter_line(shares, board[0]) == "Words: Alex 50% · Sam 50% | S1 reflects: Alex, Sam"


def test_an_empty_or_long_agenda_is_refused_in_one_sentence() -> None:
    for bad in ([], ["  "], [f"topic {i}" for i in range(9)]):
        with pytest.raises(ValueError, match=r"^The agenda is empty|^Keep the agenda to 8 topics"):
            clean_topics(bad)


def _statement(topic: str, index: int, agreed: bool) -> Statement:
    version = StatementVersion(f"r{index}", f"S{index}", topic, "text", 1, None, START)
    mark = AgreedMark(1, version.record_id, START) if agreed else None
    return Statement(f"S{index}", topic, [version], {}, mark)


TOPICS = ("budget", "holiday", "debt")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TOPICS), st.booleans()), max_size=6))
def test_a_topic_s_state_follows_its_statements(made: list[tuple[str, bool]]) -> None:
    statements = [_statement(topic.upper(), i, agreed) for i, (topic, agreed) in enumerate(made)]
    for item in topic_states(TOPICS, statements):
        mine = [agreed for topic, agreed in made if topic == item.topic]
        expected = "agreed" if any(mine) else "statement proposed" if mine else "open"
        assert item.state == expected


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(("Alex", "alex", "Sam", "Kim", None)), st.text(max_size=30)),
        max_size=10,
    )
)
def test_the_meter_counts_every_participant_s_words_and_nobody_else_s(
    said: list[tuple[str | None, str]],
) -> None:
    path = [
        MessageRecord(str(i), "c", "user", text, None, i, 1, START, {"sender": who} if who else {})
        for i, (who, text) in enumerate(said)
    ]
    shares = word_shares(path, ("Alex", "Sam"))
    assert shares == {
        "Alex": sum(len(t.split()) for w, t in said if w in ("Alex", "alex")),
        "Sam": sum(len(t.split()) for w, t in said if w == "Sam"),
    }
