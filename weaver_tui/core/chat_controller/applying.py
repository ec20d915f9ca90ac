"""How one stream of runtime events changes the chat's state: the one place it changes.

Each record an event carries enters the state's index as written; the first time a stream
names a record (the reply ``TurnStarted`` opens, each ``RecordSaved``, a draft, a failed reply)
it becomes the active leaf, as the view shows it at the end of the path; ``RunFinished`` moves
the leaf to the turn's last record. Nothing is read from the store.
"""

from __future__ import annotations

from agents.runtime.events import (
    AnswerDraft,
    BranchDeleted,
    MessageStored,
    RecordSaved,
    ReplyEdited,
    RunError,
    RunEvent,
    RunFinished,
    TurnStarted,
)
from storage.models import MessageRecord
from weaver_tui.core.chat_controller.state_port import ChatStatePort


class EventApplier:
    """Applies the events of one stream (a turn, or one edit) to ``state``."""

    def __init__(self, state: ChatStatePort) -> None:
        self.state = state
        self._named: set[str] = set()
        """Records this stream has named so far (the first naming moves the leaf)."""

    def apply(self, event: RunEvent | ReplyEdited | BranchDeleted) -> None:
        """Apply ``event``'s records (events that carry none change nothing)."""
        state = self.state
        if isinstance(event, MessageStored):
            state.apply_stored(event.conversation, event.record)
            self._named.add(event.record.id)
        elif isinstance(event, TurnStarted):
            self._record(event.reply)
        elif isinstance(event, RecordSaved | AnswerDraft | RunError):
            if event.record is not None:  # a failure before any reply carries none
                self._record(event.record)
        elif isinstance(event, RunFinished) and event.leaf_id in state.index:
            state.leaf_id = event.leaf_id
        elif isinstance(event, ReplyEdited):
            state.apply_new_leaf(event.record)
        elif isinstance(event, BranchDeleted):
            state.apply_deleted(event)

    def _record(self, record: MessageRecord) -> None:
        self.state.apply(record)
        if record.id not in self._named:
            self._named.add(record.id)
            self.state.leaf_id = record.id
