"""Writes one turn into the conversation tree as it happens.

The reply record exists before the first token; its content is flushed at most every
``flush_interval`` seconds while it streams, and on finish, cancel and error, so a process
killed mid-reply leaves the partial text in the database marked ``streaming`` (the store marks
such records interrupted when it is opened again). A thinking model's reasoning is kept apart
from the answer, in the record's ``meta["reasoning"]``, flushed the same way. A tool round becomes an assistant record
with ``meta.tool_calls`` and one tool record per result; the next round streams into a new
assistant record below them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from agents.runtime.events import Usage
from agents.runtime.user_message import NewMessage, store_user_message
from storage.models import MessageRecord, MessageStatus
from storage.secrets import scrub_text
from storage.store import ConversationStore, StorageError

logger = logging.getLogger(__name__)

STEER_META_KEY = "steered"
"""Marks a user message sent into a running turn (read at its next model call)."""
STEER_KEPT_META = frozenset({"sender", "visibility"})
"""What a steer's record keeps of the meta it came with: who said it and to whom."""


class TurnRecorder:
    def __init__(
        self,
        store: ConversationStore,
        conversation_id: str,
        user_message_id: str,
        reply_meta: dict[str, Any],
        flush_interval: float = 0.1,
    ) -> None:
        self.store = store
        self.conversation_id = conversation_id
        self.reply_meta = reply_meta
        self.flush_interval = flush_interval
        self.last_id = user_message_id
        self.record_ids: list[str] = []
        self.reply_id: str | None = None
        self.last_assistant_id: str | None = None
        self.recorded_tool_calls: set[str] = set()
        self.tools_ran = False
        """Whether a tool of this turn answered without an error (the turn did something)."""
        self.unsettled_tool_records: dict[str, str] = {}
        """Tool records written before a pause, by call id: a result for one of these calls
        (the outcome of a human decision) is written into that record, not beside it."""
        self._parts: list[str] = []
        self._dirty = False
        self._thoughts: list[str] = []
        self._thoughts_dirty = False
        self._last_flush = 0.0

    # -- the reply being streamed ---------------------------------------------------------

    @property
    def text(self) -> str:
        return "".join(self._parts)

    @property
    def reasoning(self) -> str:
        """The open reply's reasoning so far (never part of ``text``)."""
        return "".join(self._thoughts)

    continuing: str = ""
    """The text the next reply continues (a continued reply starts with it); used once."""

    def open_reply(self) -> MessageRecord:
        """Create the next assistant record (status streaming) below the last record."""
        record = self.store.add_message(
            self.conversation_id,
            "assistant",
            self.continuing,
            self.last_id,
            meta={**self.reply_meta, "status": MessageStatus.STREAMING.value},
        )
        self._track(record)
        self.reply_id = self.last_assistant_id = record.id
        self._reset_reply()
        if self.continuing:
            self._parts = [self.continuing]
        self._last_flush = time.monotonic()
        return record

    def _reset_reply(self) -> None:
        self._parts = []
        self._dirty = False
        self._thoughts = []
        self._thoughts_dirty = False

    def append(self, text: str) -> None:
        """Add streamed text; flush to the store when the last flush is old enough."""
        self._parts.append(text)
        self._dirty = True
        now = time.monotonic()
        if now - self._last_flush >= self.flush_interval:
            self.flush(now)

    def withdraw(self) -> None:
        """Take back the open reply's text (a draft the next one replaces); its reasoning stays.
        The store holds the empty text from the next flush on."""
        self._parts = []
        self._dirty = True

    def append_reasoning(self, text: str) -> None:
        """Add streamed reasoning; flushed with the text, into ``meta["reasoning"]``."""
        self._thoughts.append(text)
        self._thoughts_dirty = True
        now = time.monotonic()
        if now - self._last_flush >= self.flush_interval:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if self.reply_id is not None and (self._dirty or self._thoughts_dirty):
            text: str | None = None
            meta: dict[str, Any] | None = None
            if self._dirty:
                text = self.text
                self._parts = [text]  # one string instead of thousands of small token strings
            if self._thoughts_dirty:
                reasoning = self.reasoning
                self._thoughts = [reasoning]
                meta = {"reasoning": reasoning}
            self.store.update_message(self.reply_id, content=text, meta=meta)
            self._dirty = self._thoughts_dirty = False
        self._last_flush = now if now is not None else time.monotonic()

    def close_reply(
        self,
        status: MessageStatus,
        *,
        content: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> MessageRecord:
        """Finalise the open reply with its full text, status and extra meta (the reasoning
        streamed into it is kept in ``meta["reasoning"]`` unless ``meta`` names its own)."""
        assert self.reply_id is not None, "no open reply"
        text = self.text if content is None else self.continuing + content
        self.continuing = ""
        reasoning = self.reasoning
        full_meta = {"reasoning": reasoning, **(meta or {})} if reasoning else meta or {}
        try:
            record = self.store.update_message(
                self.reply_id, content=text, meta=full_meta, status=status
            )
        except StorageError as exc:
            if status is MessageStatus.COMPLETE:
                raise  # the caller fails the turn, which marks the reply below
            record = self._mark_as_written(status, full_meta, exc)
        self.reply_id = None
        self._reset_reply()
        return record

    def _mark_as_written(
        self, status: MessageStatus, meta: dict[str, Any], failure: StorageError
    ) -> MessageRecord:
        """Mark the open reply with ``status`` but keep the text last flushed: the smallest
        write there is, for a store that refused the whole reply (a full disk).

        When even that is refused the reply stays ``streaming`` in the file, as after a crash,
        and the store marks it interrupted when it is next opened; the record returned is the
        one the file holds, with the status and sentence it should have, for the caller to
        show."""
        assert self.reply_id is not None
        logger.warning("reply text not written", extra={"error": str(failure)})
        small: dict[str, Any] = {key: meta[key] for key in ("error", "latency_ms") if key in meta}
        try:
            return self.store.update_message(self.reply_id, meta=small, status=status)
        except StorageError as again:
            logger.warning("reply not marked", extra={"error": str(again)})
            written = self.store.get_message(self.reply_id)
            return replace(written, meta={**written.meta, **small, "status": status.value})

    # -- steers ---------------------------------------------------------------------------

    def add_steer(self, text: str, meta: Mapping[str, Any] | None = None) -> MessageRecord:
        """Store a message the user sent into the turn, where a model call read it: below the
        last record (a tool round's last result); the next reply opens below it. ``meta``:
        who said it and to whom (only :data:`STEER_KEPT_META` is kept)."""
        kept = {k: v for k, v in (meta or {}).items() if k in STEER_KEPT_META}
        if self.reply_id is not None:
            self.close_reply(MessageStatus.COMPLETE)
        message = NewMessage(
            profile=str(self.reply_meta.get("profile") or ""),
            text=text,
            conversation_id=self.conversation_id,
            parent_id=self.last_id,
            meta={**kept, STEER_META_KEY: True},
        )
        record = store_user_message(self.store, message).record
        self._track(record)
        return record

    # -- tool results ---------------------------------------------------------------------

    def add_tool_result(
        self,
        call_id: str,
        name: str,
        output: str,
        *,
        error: str | None,
        duration_ms: float | None,
        extra_meta: dict[str, Any] | None = None,
    ) -> MessageRecord:
        """``extra_meta``: what the tool asked to keep (``ToolMessage.artifact["record_meta"]``)."""
        meta: dict[str, Any] = {
            **(extra_meta or {}),
            "tool_call_id": call_id,
            "name": name,
            "error": scrub_text(error) if error else error,
        }
        if duration_ms is not None:
            meta["duration_ms"] = round(duration_ms, 2)
        existing = self.unsettled_tool_records.pop(call_id, None)
        if existing is not None:
            record = self.store.update_message(existing, content=output, meta=meta)
        else:
            record = self.store.add_message(
                self.conversation_id, "tool", output, self.last_id, meta=meta
            )
        self.recorded_tool_calls.add(call_id)
        self._remember_acceptance(record)
        if not error:
            self.tools_ran = True
        self._track(record)
        return record

    def _remember_acceptance(self, record: MessageRecord) -> None:
        """A patch the user accepted in this turn's review becomes a row of the store's
        accepted patches: what undo and redo may write back (an imported record never is)."""
        meta = record.meta
        edit = meta.get("patch_edit")
        if meta.get("patch_status") != "applied" or not isinstance(edit, dict):
            return
        self.store.accept_patch(
            record.id,
            str(meta.get("patch_id")),
            str(meta.get("patch_path")),
            edit.get("base_sha256"),
            str(edit.get("new_sha256")),
        )

    # -- the end of the turn ----------------------------------------------------------------

    def finish_turn(
        self,
        status: MessageStatus,
        *,
        latency_ms: float,
        usage: Usage | None = None,
        error: str | None = None,
        outcome: str | None = None,
        content: str | None = None,
    ) -> MessageRecord:
        """Close the turn on its last record and make that the active leaf.

        ``outcome`` marks a reply that ended refused, filtered, truncated or empty
        (``meta["outcome"]``, beside the sentence in ``meta["error"]``); ``content`` replaces
        the streamed text (a refusal's own words, which never streamed as content).

        A cancel or error between rounds (after tool results, before the next reply) still
        ends on an assistant record carrying the status, so the UI has a reply to mark. An
        error is written here, on the record (status error, the sentence in
        ``meta["error"]``): the runtime is the turn's only writer, the UI only shows it.
        Returns the record as written.
        """
        meta: dict[str, Any] = {"latency_ms": latency_ms}
        if error is not None:
            meta["error"] = scrub_text(error)
        if outcome is not None:
            meta["outcome"] = outcome
        if usage is not None:
            meta["turn_usage"] = usage.as_meta()
        between_rounds = self.last_id != self.last_assistant_id
        if self.reply_id is None and status is not MessageStatus.COMPLETE and between_rounds:
            self.open_reply()
        if self.reply_id is not None:
            record = self.close_reply(status, content=content, meta=meta)
        else:  # the last reply was closed already; a failure after it still marks it failed
            failed = status if status is MessageStatus.ERROR else None
            record = self.store.update_message(
                self.last_id, content=content, meta=meta, status=failed
            )
        try:
            self.store.set_active_leaf(self.conversation_id, self.last_id)
        except StorageError as exc:  # the turn's records are written; only the bookmark is not
            logger.warning("active leaf not moved", extra={"error": str(exc)})
        return record

    def record_interrupt(
        self, values: list[Any], *, thread_id: str, user_message_id: str, profile: str
    ) -> MessageRecord:
        """Remember a turn paused by ``interrupt()`` on its last assistant record, so the app
        can show the question and ``AgentRuntime.resume_turn`` can continue it (even after a
        restart: the graph state is in the checkpointer under ``thread_id``)."""
        target = self.last_assistant_id or self.last_id
        pending = {
            "thread_id": thread_id,
            "user_message_id": user_message_id,
            "profile": profile,
            "values": values,
        }
        return self.annotate(target, {"pending_interrupt": pending})

    def resume_below(self, record_id: str) -> None:
        """Continue a paused turn below ``record_id``: the tool records that hang below it in
        one chain (results written before the pause) are settled in place when their call's
        result arrives again, so a decision adds no second version of the result."""
        children = self.store.children(record_id, self.conversation_id)
        while len(children) == 1 and children[0].role == "tool":
            call_id = children[0].meta.get("tool_call_id")
            if isinstance(call_id, str):
                self.unsettled_tool_records[call_id] = children[0].id
            children = self.store.children(children[0].id, self.conversation_id)

    def annotate(self, record_id: str, meta: dict[str, Any]) -> MessageRecord:
        """Merge ``meta`` into a record; return the record as written."""
        return self.store.update_message(record_id, meta=meta)

    def _track(self, record: MessageRecord) -> None:
        self.last_id = record.id
        self.record_ids.append(record.id)
