"""The records of the conversation tree, as plain frozen dataclasses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

Role = Literal["system", "user", "assistant", "tool"]


class MessageStatus(StrEnum):
    """Lifecycle of a record. Only assistant records are ever anything but ``complete``."""

    COMPLETE = "complete"
    STREAMING = "streaming"
    CANCELLED = "cancelled"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Conversation:
    """One conversation: a tree of messages that belongs to one agent profile.

    ``meta`` holds ``active_leaf`` (the message the user last looked at), ``project_root``
    for ide-helper, ``participants`` for mediator, and whatever else a profile needs.
    """

    id: str
    title: str
    profile: str
    created_at: datetime
    updated_at: datetime
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """One node of the git-style message tree.

    ``version`` numbers siblings (records with the same parent) from 1 in creation order, so an
    edited user message or a regenerated reply is a new sibling with the next version.

    ``meta`` keys in use: ``status`` (a :class:`MessageStatus` value), ``tool_calls`` (list of
    ``{"id", "name", "args"}`` on assistant records), ``tool_call_id`` and ``name`` (on tool
    records), ``provider``, ``model``, ``usage`` (``{"input_tokens", "output_tokens",
    "total_tokens"}``), ``latency_ms``, ``error`` (a sentence), ``outcome`` (on a failed reply
    that ended ``refused``, ``filtered``, ``truncated`` or ``empty``), ``visibility`` (with several
    participants: ``"shared"`` or a participant name), ``sender`` (who said a user message,
    read as :attr:`sender`; the model is told it as the message ``name``).
    """

    id: str
    conversation_id: str
    role: Role
    content: str
    parent_id: str | None
    depth: int
    version: int
    created_at: datetime
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> MessageStatus:
        return MessageStatus(self.meta.get("status", MessageStatus.COMPLETE))

    @property
    def sender(self) -> str | None:
        """Who said this user message, when the conversation has several participants."""
        sender = self.meta.get("sender")
        return str(sender) if sender else None

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        return list(self.meta.get("tool_calls") or [])

    @property
    def tool_call_id(self) -> str | None:
        return self.meta.get("tool_call_id")


@dataclass(frozen=True, slots=True)
class AcceptedPatch:
    """One patch the user accepted on this machine, as the review recorded it (see
    :mod:`storage.accepted_patches`)."""

    record_id: str
    patch_id: str
    path: str
    base_sha256: str | None
    new_sha256: str

    def matches(self, path: str, edit: Mapping[str, Any]) -> bool:
        """The record's edit is the one accepted (same file, same hashes before and after)."""
        return (
            path == self.path
            and edit.get("base_sha256") == self.base_sha256
            and edit.get("new_sha256") == self.new_sha256
        )
