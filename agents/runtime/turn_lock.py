"""One turn at a time per conversation, across processes.

Two ``ask`` commands on the same conversation at once would both read the same active leaf:
the second question would hang below the first one instead of below its answer. A turn that
continues a conversation holds an advisory lock on a small file in the data folder
(``locks/<conversation id>.lock``) while it runs; a second one is refused with a sentence.
The operating system drops the lock when the process ends, however it ends.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from agents.errors import WeaverError


class ConversationBusy(WeaverError):
    """Another process is writing a reply in this conversation."""

    code = "busy"

    def __init__(self, conversation_id: str) -> None:
        super().__init__(
            f"a reply is being written in conversation {conversation_id}; wait for it to "
            "finish, or fork below a message with --parent"
        )
        self.conversation_id = conversation_id


@contextlib.contextmanager
def conversation_turn(data_dir: Path, conversation_id: str) -> Iterator[None]:
    """Hold ``conversation_id``'s turn lock, or raise :class:`ConversationBusy` at once."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): turns are not serialised
        yield
        return
    folder = Path(data_dir) / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / f"{conversation_id}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConversationBusy(conversation_id) from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def conversation_busy(data_dir: Path, conversation_id: str) -> bool:
    """Whether another turn holds ``conversation_id``'s lock right now. Creates nothing: a
    conversation whose lock file does not exist has never had a turn holding it.

    The probe takes the lock for an instant: a turn starting in that instant is refused as if
    the prober's own turn had started first, which is what the prober (``ask``) does next."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: turns are not serialised
        return False
    try:
        fd = os.open(Path(data_dir) / "locks" / f"{conversation_id}.lock", os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
