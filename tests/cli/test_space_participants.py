"""Who ``space open --conversation ID`` seats: the conversation's recorded participants, the
people who have spoken in it (a conversation started with ``ask --sender``), and anyone named
with ``--participants``; a conversation of a profile without seats is refused in a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.sqlite_store import SqliteConversationStore
from weaver_tui.core.cli.errors import CliError
from weaver_tui.core.cli.space_verbs import space_conversation


def test_a_conversation_started_with_ask_sender_seats_who_spoke_and_who_is_named(
    tmp_path: Path,
) -> None:
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        conversation = store.create_conversation("mediator", "Started by Sam")
        said = store.add_message(conversation.id, "user", "Hello?", None, meta={"sender": "Sam"})
        store.add_message(conversation.id, "assistant", "Welcome, Sam.", said.id)
        _, seated = space_conversation(store, conversation.id, None)
        assert seated == ("Sam",)
        _, seated = space_conversation(store, conversation.id, "alex")
        assert seated == ("Sam", "alex")
        assert store.get_conversation(conversation.id).meta["participants"] == ["Sam", "alex"]


def test_a_conversation_without_seats_is_refused_in_one_sentence(tmp_path: Path) -> None:
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper", "Code")
        with pytest.raises(CliError, match="no seats"):
            space_conversation(store, conversation.id, "Alex")
        empty = store.create_conversation("mediator", "Nobody yet")
        with pytest.raises(CliError, match="--participants"):
            space_conversation(store, empty.id, None)


names = st.sampled_from(["Alex", "alex", "Sam", " Sam ", "Kim", "Jo"])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(recorded=st.lists(names, max_size=2), spoke=st.lists(names, max_size=4),
       named=st.lists(names, max_size=3))  # fmt: skip
def test_everyone_recorded_who_spoke_or_is_named_is_seated_once(
    tmp_path_factory: pytest.TempPathFactory,
    recorded: list[str],
    spoke: list[str],
    named: list[str],
) -> None:
    folder = tmp_path_factory.mktemp("space")
    with SqliteConversationStore(folder / "weaver.db") as store:
        meta = {"participants": recorded} if recorded else {}
        conversation = store.create_conversation("mediator", "Space", meta=meta)
        parent = None
        for speaker in spoke:
            parent = store.add_message(
                conversation.id, "user", "hi", parent, meta={"sender": speaker}
            ).id
        everyone = {" ".join(n.split()).lower() for n in [*recorded, *spoke, *named]}
        if not everyone:
            with pytest.raises(CliError):
                space_conversation(store, conversation.id, ",".join(named) or None)
            return
        _, seated = space_conversation(store, conversation.id, ",".join(named) or None)
        assert {name.lower() for name in seated} == everyone
        assert len({name.lower() for name in seated}) == len(seated)
