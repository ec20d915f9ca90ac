"""Labels everyone reads pass the same guard as posts: a statement's topic and the agenda's
topics (together, so a quotation split across topics is caught) never repeat a participant's
private words; the mediator is told to name them neutrally and nothing is shown.

Generated cases call the tools on a real SQLite branch holding Sam's private message, with any
window of its words (whole sentences, eight words in a row, re-cased, split across topics);
the concrete case runs the real runtime on the fake OpenAI-compatible server and reads Alex's
seat view, statement board and agenda.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.tools import ToolException
from langgraph.prebuilt import ToolRuntime

from agents.profile import TurnContext
from agents.profiles.mediator.statement_tools import propose_statement, set_agenda
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ToolFinished
from agents.shared_space.agenda import agenda_for
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.guard import RUN_WORDS
from agents.shared_space.seat_view import seat_lines
from agents.shared_space.statements import statement_board
from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply, ToolCall

SECRET = "we borrowed nine thousand from my parents without telling anyone in the family"
WORDS = SECRET.split()


def _runtime(store: SqliteConversationStore, space: Conversation, said_id: str) -> Any:
    context = TurnContext(
        model=None,  # type: ignore[arg-type]  # the tools call no model
        conversation_id=space.id,
        user_message_id=said_id,
        store=store,
        system_prompt="",
        sender="Alex",
        participants=("Alex", "Sam"),
    )
    return ToolRuntime(
        state={"messages": []}, context=context, config={}, stream_writer=lambda _: None,
        tool_call_id="call-1", store=None,
    )  # fmt: skip


def _call(tool: Any, **arguments: Any) -> object:
    """The tool's function itself, called as the tool node calls it."""
    return tool.func(**arguments)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    start=st.integers(0, len(WORDS) - RUN_WORDS),
    extra=st.integers(0, 3),
    upper=st.booleans(),
    cut=st.integers(1, RUN_WORDS - 1),
    where=st.sampled_from(["one topic", "two topics", "statement topic"]),
)
def test_a_label_repeating_private_words_is_held(
    tmp_path: Path, start: int, extra: int, upper: bool, cut: int, where: str
) -> None:
    window = [w.upper() if upper else w for w in WORDS[start : start + RUN_WORDS + extra]]
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": ["Alex", "Sam"]})
        sam = UserMessageEvent(sender="Sam", content=SECRET + ".")
        first = store.add_message(space.id, "user", sam.content, None, sam.record_meta())
        alex = UserMessageEvent(sender="Alex", content="Let us plan.", visibility="shared")
        said = store.add_message(space.id, "user", alex.content, first.id, alex.record_meta())
        runtime = _runtime(store, space, said.id)
        halves = [" ".join(window[:cut]), " ".join(window[cut:])]
        calls: dict[str, Callable[[], object]] = {
            "statement topic": lambda: _call(
                propose_statement,
                topic=" ".join(window)[:80],
                text="Save a little each month.",
                runtime=runtime,
            ),
            "one topic": lambda: _call(
                set_agenda, topics=["budget", " ".join(window)], runtime=runtime
            ),
            "two topics": lambda: _call(set_agenda, topics=halves, runtime=runtime),
        }
        with pytest.raises(ToolException) as held:
            calls[where]()
        assert "Sam's private words" in str(held.value)
        assert " ".join(window[:3]).lower() not in str(held.value).lower()


async def test_the_agenda_and_a_statement_topic_never_show_sam_s_secret(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(Reply("Thank you, Sam."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SECRET + "."))
    fake_openai.script(
        Reply(tool_calls=[
            ToolCall("set_agenda", {"topics": ["budget", SECRET]}, id="agenda"),
            ToolCall("propose_statement",
                     {"topic": SECRET[:80], "text": "We save 200 a month."}, id="statement"),
        ]),
        Reply("Done."),
    )  # fmt: skip
    events = await say(
        runtime, store, space, model,
        UserMessageEvent(sender="Alex", content="What is on the agenda?", visibility="shared"),
    )  # fmt: skip

    finished = {e.call_id: e for e in events if isinstance(e, ToolFinished)}
    assert finished["agenda"].error is not None
    assert finished["statement"].error is not None
    board = statement_board(store, space.id, "Alex")
    shown = [line.content for line in seat_lines(store, space.id, "Alex")]
    shown += [s.topic for s in board]
    shown += [item.topic for item in agenda_for(store, space.id, "Alex", board)]
    assert all("parents" not in text for text in shown)
