"""Participants and visibility rules of a mediator space, on real records in SQLite."""

from __future__ import annotations

from typing import Any

import pytest

from agents.errors import ConfigError
from agents.shared_space import DEFAULT_PARTICIPANTS
from agents.shared_space.space import (
    canonical_participant,
    clean_participants,
    new_space,
    participants_of,
    record_visibility,
    set_participants,
    shared_channel,
    view_for,
    visible_to,
)


def test_a_new_space_has_two_default_participants_and_names_can_change(store: Any) -> None:
    space = new_space(store)
    assert participants_of(space) == DEFAULT_PARTICIPANTS == ("Alex", "Sam")
    assert participants_of(store.create_conversation("mediator")) == DEFAULT_PARTICIPANTS
    updated = set_participants(store, space.id, ["Jordan", " Riley ", "Kim"])
    assert participants_of(updated) == ("Jordan", "Riley", "Kim")
    assert participants_of(store.get_conversation(space.id)) == ("Jordan", "Riley", "Kim")


@pytest.mark.parametrize(
    ("names", "fragment"),
    [
        (["Alex", "alex"], "named twice"),
        (["[Alex]"], "without brackets"),
        (["Al:ex"], "colons"),
        (["x" * 41], "1-40 characters"),
        (["shared"], "reserved"),
        ([], "at least one"),
    ],
)
def test_bad_participant_names_are_refused_with_a_sentence(names: list[str], fragment: str) -> None:
    with pytest.raises(ConfigError) as caught:
        clean_participants(names)
    assert fragment in caught.value.user_message


def test_recipients_match_without_regard_to_case_or_spacing() -> None:
    assert canonical_participant(" sam ", ("Alex", "Sam")) == "Sam"
    assert canonical_participant("Jordan", ("Alex", "Sam")) is None


def test_visibility_rules_on_a_hand_built_path(store: Any) -> None:
    space = new_space(store)
    add = store.add_message
    a = add(space.id, "user", "private to mediator", None, meta={"sender": "Alex"})
    calls = [
        {"id": "c1", "name": "reply_privately", "args": {"recipient": "Alex", "content": "Hi A"}},
        {"id": "c2", "name": "post_to_shared", "args": {"content": "Hello all"}},
        {"id": "c3", "name": "reply_privately", "args": {"recipient": "Zed", "content": "??"}},
    ]
    r = add(space.id, "assistant", "", a.id, meta={"tool_calls": calls})
    t2 = add(
        space.id, "tool", "Posted.", r.id, meta={"tool_call_id": "c2", "name": "post_to_shared"}
    )
    t1 = add(
        space.id,
        "tool",
        "Delivered.",
        t2.id,
        meta={"tool_call_id": "c1", "name": "reply_privately"},
    )
    t3 = add(
        space.id, "tool", "'Zed' is not a participant", t1.id,
        meta={"tool_call_id": "c3", "name": "reply_privately", "error": "not a participant"},
    )  # fmt: skip
    note = add(space.id, "assistant", "Done: replied to Alex.", t3.id)
    s = add(
        space.id,
        "user",
        "Sam here, for all",
        note.id,
        meta={"sender": "Sam", "visibility": "shared"},
    )
    plain = add(space.id, "assistant", "Welcome, Sam.", s.id)  # no delivery tool used
    path = store.path_to_root(plain.id)

    assert record_visibility(a) == "Alex"
    assert record_visibility(t1, path) == "Alex"
    assert record_visibility(t2, path) == "shared"
    assert record_visibility(t3, path) is None
    assert [visible_to(x, "Sam", path) for x in (a, t1, t2, t3, note, s)] == [
        False, False, True, False, False, True,
    ]  # fmt: skip
    assert visible_to(a, "Alex", path)
    assert visible_to(t1, "alex", path)

    alex = [(m.author, m.content, m.kind) for m in view_for(path, "Alex")]
    sam = [(m.author, m.content, m.kind) for m in view_for(path, "Sam")]
    # Tool results are shown in the order of the calls, whatever order they finished in.
    assert alex == [
        ("Alex", "private to mediator", "said"),
        ("Mediator", "Hi A", "delivered"),
        ("Mediator", "Hello all", "delivered"),
        ("Sam", "Sam here, for all", "said"),
    ]
    assert sam == [
        ("Mediator", "Hello all", "delivered"),
        ("Sam", "Sam here, for all", "said"),
        ("Mediator", "Welcome, Sam.", "reply"),  # undelivered answer goes to the speaker
    ]
    mediator = view_for(path, None)
    assert ("Done: replied to Alex.", "internal") in [(m.content, m.kind) for m in mediator]
    assert [m.content for m in shared_channel(path)] == ["Hello all", "Sam here, for all"]
