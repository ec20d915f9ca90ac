"""One turn at a time per conversation, across processes.

Two ``ask`` commands on the same conversation at once would both read the same active leaf:
the second question would hang below the first one instead of below its answer. A turn that
continues a conversation holds the conversation's turn lock while it runs; a second one is
refused with a sentence. The storage settings choose the lock (``storage.backend.turn_locks``:
a file in the data folder, or an advisory lock on the PostgreSQL server); a data folder given
as a path means the file. The lock goes when the process ends, however it ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from agents.errors import WeaverError
from storage.turn_locks import FileTurnLocks, TurnBusy, TurnLocks


class ConversationBusy(WeaverError):
    """Another process is writing a reply in this conversation."""

    code = "busy"

    def __init__(self, conversation_id: str) -> None:
        super().__init__(
            f"a reply is being written in conversation {conversation_id}; wait for it to "
            "finish, or fork below a message with --parent"
        )
        self.conversation_id = conversation_id


def _locks(where: Path | TurnLocks) -> TurnLocks:
    return FileTurnLocks(where) if isinstance(where, Path) else where


@contextlib.contextmanager
def conversation_turn(where: Path | TurnLocks, conversation_id: str) -> Iterator[None]:
    """Hold ``conversation_id``'s turn lock, or raise :class:`ConversationBusy` at once."""
    try:
        with _locks(where).hold(conversation_id):
            yield
    except TurnBusy:
        raise ConversationBusy(conversation_id) from None


def conversation_busy(where: Path | TurnLocks, conversation_id: str) -> bool:
    """Whether another turn holds ``conversation_id``'s lock right now (see
    :meth:`storage.turn_locks.FileTurnLocks.busy`)."""
    return _locks(where).busy(conversation_id)
