"""The contract of the viewer filter, part four: search agrees with the path. A record that
names its audience (a ``visibility`` or a ``sender``) is found by a viewer's search exactly
when the viewer's path holds it, whether or not its conversation recorded participants (a
space started by a front end that recorded none); a record of a one-person conversation that
names no audience is everyone's. Runs once per backend in ``STORE_FACTORIES``."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.store import ConversationStore

PEOPLE = ("Alex", "Sam")
_SERIAL = itertools.count(100_000)
_MISSING = "(missing)"
audiences = st.sampled_from([_MISSING, None, "shared", "Alex", "sam", "Kim"])


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    recorded=st.booleans(),
    role=st.sampled_from(["user", "assistant"]),
    visibility=audiences,
    sender=audiences,
    viewer=st.sampled_from(PEOPLE),
)
def test_a_viewer_s_search_finds_a_record_exactly_when_their_path_holds_it(
    backend: ConversationStore,
    recorded: bool,
    role: str,
    visibility: Any,
    sender: Any,
    viewer: str,
) -> None:
    meta = {"participants": list(PEOPLE)} if recorded else {}
    space = backend.create_conversation("mediator", "t", meta=meta)
    words = f"zebra{next(_SERIAL)}"  # one word no other example's record holds
    record_meta = {
        key: value
        for key, value in (("visibility", visibility), ("sender", sender))
        if value != _MISSING
    }
    record = backend.add_message(space.id, role, f"{words} said", None, record_meta)  # type: ignore[arg-type]
    found = [hit.message_id for hit in backend.search(words, viewer=viewer)]
    names_audience = any(v is not None for v in record_meta.values())
    if names_audience or recorded:
        in_path = [r.id for r in backend.path_to_root(record.id, viewer)]
        assert found == in_path
    else:
        assert found == [record.id]
