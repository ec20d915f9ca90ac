"""One meaning of "private" for a participant's message: what the store hides from another
participant is exactly what the model reads marked as private and what the shared channel's
guard protects, whatever the record's meta holds (an explicit visibility in any spelling, or
only a sender, as ``ask --sender`` and older or imported records write it).

The generated cases store each record in a real SQLite file and ask the store's own viewer
filter who may read it (the ``ask --sender`` case over the fake server:
``tests/cli/test_ask_sender_privacy.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.runtime.history import user_message
from agents.shared_space.guard import held_for
from storage.sqlite_store import SqliteConversationStore

PEOPLE = ("Alex", "Sam", "Kim")
WORDS = "we kept the card for the holidays a secret from everyone here"
_MISSING = object()

spellings = st.sampled_from(PEOPLE).flatmap(
    lambda name: st.sampled_from([name, name.lower(), name.upper(), f"  {name} "])
)
visibilities = st.one_of(
    st.just(_MISSING),
    st.none(),
    st.sampled_from(["", "shared", "Shared", "SHARED ", "everyone"]),
    spellings,
)


def _meta(sender: str | None, visibility: object) -> dict[str, Any]:
    meta: dict[str, Any] = {} if sender is None else {"sender": sender}
    if visibility is not _MISSING:
        meta["visibility"] = visibility
    return meta


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sender=spellings, visibility=visibilities)
def test_what_the_store_hides_from_someone_is_marked_for_the_model_and_guarded(
    tmp_path: Path, sender: str, visibility: object
) -> None:
    """For every user record with a sender: some participant cannot read it through the
    store's viewer filter ⇔ the model reads it with the private mark ⇔ a shared post that
    repeats it is held."""
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": list(PEOPLE)})
        record = store.add_message(space.id, "user", WORDS, None, meta=_meta(sender, visibility))
        readers = {p for p in PEOPLE if store.path_to_root(record.id, p)}
    hidden_from_someone = readers != set(PEOPLE)
    marked = str(user_message(record).content).startswith("[private: ")
    guarded = held_for(f"Someone said: {WORDS}.", [record]) != []
    assert marked == hidden_from_someone
    assert guarded == hidden_from_someone
