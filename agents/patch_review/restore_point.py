"""Going back to a message with the files too: what "restore conversation and files" reverts.

Regenerating a reply, sending an edited message again, or forking at a message goes back in
the conversation to a point; patches accepted after that point on the branch shown would stay
in the project unless the user chooses to take the files back as well. Every front end asks
:func:`patches_after` whether there is such a choice to offer (an empty list: none), and on
"conversation and files" calls :func:`restore_files`, which reverts exactly those patches,
newest first, all or nothing (:func:`agents.patch_review.rewind.rewind_all`): a file changed
since is reported and nothing is written, so the front end does not go on with the action.

The point of each action: regenerating a reply goes back to the user message it answers;
an edited message is resent from its parent; a fork starts below the message forked at.
"""

from __future__ import annotations

from pathlib import Path

from agents.patch_review.rewind import (
    APPLIED,
    PatchOnBranch,
    RewindOutcome,
    accepted_on,
    patches_on,
    rewind_all,
)
from storage.store import ConversationStore


def patches_after(
    store: ConversationStore, leaf_id: str, point_id: str | None
) -> list[PatchOnBranch]:
    """The patches accepted here and applied on the path to ``leaf_id`` below ``point_id``
    (``None``: the conversation's start), newest first; empty when ``point_id`` is not on
    that path (nothing of this branch is left behind)."""
    path = store.path_to_root(leaf_id)
    ids = [record.id for record in path]
    if point_id is None:
        later = path
    elif point_id in ids:
        later = path[ids.index(point_id) + 1 :]
    else:
        return []
    found = patches_on(later, APPLIED, accepted_on(store, later))
    found.reverse()
    return found


def restore_files(
    root: Path, store: ConversationStore, leaf_id: str, point_id: str | None
) -> list[RewindOutcome]:
    """Revert every patch of :func:`patches_after`, all or nothing; one outcome each."""
    return rewind_all(
        root, store, [(patch, "revert") for patch in patches_after(store, leaf_id, point_id)]
    )
