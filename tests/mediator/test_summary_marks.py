"""The summary of older turns keeps what was private marked: every message some participant
may not read reaches the summariser (and the extract that needs no model) with the same private
mark the model reads in the history, and the summariser is told to keep it; a message everyone
reads carries no mark.

Generated cases store each message in a real SQLite file and ask the store's viewer filter who
reads it; the concrete case summarises a space over the fake OpenAI-compatible server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.context import extract, transcript
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RecordSaved
from agents.runtime.tree_edits import TreeEdits
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.marks import private_mark
from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply

PEOPLE = ("Alex", "Sam", "Kim")
SECRET = "I lost our savings at the casino last spring and I feel ashamed."
_MISSING = "(missing)"
messages = st.lists(
    st.tuples(
        st.sampled_from(PEOPLE),
        st.sampled_from([_MISSING, None, "", "shared", "Shared", *PEOPLE, "sam"]),
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(said=messages)
def test_every_message_hidden_from_someone_is_marked_in_what_the_summariser_reads(
    tmp_path: Path, said: list[tuple[str, str | None]]
) -> None:
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": list(PEOPLE)})
        parent = None
        records = []
        for index, (sender, visibility) in enumerate(said):
            meta: dict[str, Any] = {"sender": sender}
            if visibility != _MISSING:
                meta["visibility"] = visibility
            record = store.add_message(space.id, "user", f"line {index}", parent, meta)
            records.append(record)
            parent = record.id
        leaf = records[-1].id
        hidden = [
            any(record.id not in {r.id for r in store.path_to_root(leaf, p)} for p in PEOPLE)
            for record in records
        ]
    lines = transcript(records).splitlines()
    extracted = extract("", records).splitlines()[1:]
    for record, line, extract_line, private in zip(records, lines, extracted, hidden, strict=True):
        mark = private_mark(str(record.meta["sender"]))
        assert (mark in line) == private
        assert (mark in extract_line) == private


async def test_a_summary_of_a_space_is_asked_with_the_private_marks_kept(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(Reply("Thank you, Sam."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SECRET))
    for turn in range(4):
        fake_openai.script(Reply(f"Noted ({turn})."))
        await say(
            runtime, store, space, model,
            UserMessageEvent(sender="Alex", content=f"Point {turn}.", visibility="shared"),
        )  # fmt: skip
    fake_openai.script(Reply("A summary."))
    leaf = store.active_leaf(space.id)
    saved = await TreeEdits(store).summarise(leaf.id, model.model)
    assert isinstance(saved, RecordSaved)

    asked = fake_openai.chat_bodies[-1]["messages"]
    assert f"Sam {private_mark('Sam')}: {SECRET}" in asked[-1]["content"]
    assert "Alex: Point 0." in asked[-1]["content"]
    assert private_mark("Alex") not in asked[-1]["content"]
    assert "[private: NAME → mediator]" in asked[0]["content"]
    extracted = await TreeEdits(store).summarise(leaf.id, model.model, extractive=True)
    assert isinstance(extracted, RecordSaved)
    assert f"Sam {private_mark('Sam')}: {SECRET}" in extracted.record.meta["summary"]
