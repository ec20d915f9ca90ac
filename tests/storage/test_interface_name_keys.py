"""The contract of the viewer filter, part three: a stored name is compared with the viewer's
in one form on every backend (:func:`storage.audience.viewer_key`: spaces collapsed, every
letter in lower case, not only A-Z), so a participant whose name has a capital beyond A-Z reads
their own records and what was sent to them, in any spelling of their name the key allows.
Runs once per backend in ``STORE_FACTORIES``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.audience import viewer_key
from storage.store import ConversationStore

PEOPLE = ("Émile", "ÖDÖN", "Łukasz", "Ирина", "Zoë", "Alex")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(owner=st.sampled_from(PEOPLE), spelled=st.sampled_from(["as is", "lower", "upper"]))
def test_a_participant_reads_their_own_records_whatever_their_letters(
    backend: ConversationStore, owner: str, spelled: str
) -> None:
    viewer = {"as is": owner, "lower": owner.lower(), "upper": owner.upper()}[spelled]
    assert viewer_key(viewer) == viewer_key(owner)
    space = backend.create_conversation("mediator", "t", meta={"participants": list(PEOPLE)})
    said = backend.add_message(
        space.id, "user", "my words", None, {"sender": owner, "visibility": owner}
    )
    reply = backend.add_message(space.id, "assistant", "for you", said.id, {"visibility": owner})
    assert [r.id for r in backend.path_to_root(reply.id, viewer)] == [said.id, reply.id]
    assert {row.id for row in backend.message_rows(space.id, viewer)} == {said.id, reply.id}
    others = [p for p in PEOPLE if p != owner]
    assert all(backend.path_to_root(reply.id, other) == [] for other in others)
