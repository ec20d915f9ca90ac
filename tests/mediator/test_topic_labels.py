"""A topic the model names cannot draw a state the seats draw from the participants' answers:
every agenda topic and statement topic is plain words, so the agenda line a seat shows holds
exactly one state mark per topic and says "agreed" only of a topic a statement was agreed on.

Generated topics mix words with state marks, brackets and other symbols; each is either
refused in one sentence (nothing set) or shown with its one true state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.tools import ToolException
from langgraph.prebuilt import ToolRuntime

from agents.profile import TurnContext
from agents.profiles.mediator.statement_tools import propose_statement, set_agenda
from agents.shared_space.agenda import agenda_for
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.statements import statement_board
from storage.sqlite_store import SqliteConversationStore
from weaver_tui.widgets.statement_box import STATE_MARKS, agenda_line

PIECES = ["rent", "holiday", "budget", " ", "✔", "○", "◐", "(agreed)", "(open)", "€", "-", "[x]"]
topics = st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join),
                  min_size=1, max_size=3)  # fmt: skip


def _outcome(tool: Any, **arguments: Any) -> tuple[Any, str | None]:
    """(the tool's answer, None), or (None, the sentence it refused with)."""
    try:
        return tool.func(**arguments), None
    except ToolException as refused:
        return None, str(refused)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(named=topics)
def test_a_topic_shows_only_its_true_state(tmp_path: Path, named: list[str]) -> None:
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": ["Alex", "Sam"]})
        said = UserMessageEvent(sender="Alex", content="Plan?", visibility="shared")
        record = store.add_message(space.id, "user", said.content, None, said.record_meta())
        context = TurnContext(
            model=None,  # type: ignore[arg-type]  # the tools call no model
            conversation_id=space.id, user_message_id=record.id, store=store,
            system_prompt="", sender="Alex", participants=("Alex", "Sam"),
        )  # fmt: skip
        runtime: Any = ToolRuntime(
            state={"messages": []}, context=context, config={},
            stream_writer=lambda _: None, tool_call_id="c", store=None,
        )  # fmt: skip
        answer, refused = _outcome(set_agenda, topics=named, runtime=runtime)
        if refused is not None:
            assert "plain words" in refused or "empty" in refused
            return
        stated, refused = _outcome(
            propose_statement, topic=named[0], text="We save 100.", runtime=runtime
        )
        assert stated is not None or refused is not None
        if stated is not None:
            assert not set(stated[1]["record_meta"]["topic"]) & set("".join(STATE_MARKS.values()))
        agenda = answer[1]["record_meta"]["topics"]
        tool = store.add_message(space.id, "tool", "Agenda set.", record.id,
                                 {"name": "set_agenda", "kind": "agenda", "topics": agenda,
                                  "visibility": "shared"})  # fmt: skip
        store.update_conversation_meta(space.id, active_leaf=tool.id)
        board = statement_board(store, space.id, "Alex")
        shown = agenda_line(agenda_for(store, space.id, "Alex", board)).plain
    marks = sum(shown.count(mark) for mark in STATE_MARKS.values())
    assert marks == len(agenda)
    assert "agreed" not in shown
