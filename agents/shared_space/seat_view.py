"""What one participant's seat shows: read through the store's viewer filter, never filtered
after the fact.

A seat loads the records of the conversation's active path that its participant may read
(``path_to_root`` with the participant as ``viewer``: the condition is in the SQL, so another
person's private words never reach the seat's process), then shapes them as that person's view
(:func:`agents.shared_space.space.view_for`: a delivery reads as the mediator's message). The
active leaf is read as an id from the conversation's meta, not as a record, for the same reason.
"""

from __future__ import annotations

from agents.shared_space.space import SpaceMessage, view_for
from storage.store import ConversationStore, NotFoundError


def seat_lines(
    store: ConversationStore, conversation_id: str, participant: str
) -> list[SpaceMessage]:
    """The lines ``participant`` reads of the space's active path, oldest first."""
    leaf_id = store.get_conversation(conversation_id).meta.get("active_leaf")
    if not leaf_id:
        return []
    try:
        records = store.path_to_root(str(leaf_id), participant)
    except NotFoundError:  # the branch was deleted since the leaf was chosen
        return []
    return view_for(records, participant)
