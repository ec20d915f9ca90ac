"""Authority rows count only when this user made them here: one key, one verifier.

Some rows of a store grant the product the right to act: undo and redo write a patch back
into the project only because ``accepted_patches`` says the user accepted it. A store file is
data, though: it can be copied from another machine or user, restored from a backup, crafted
and opened through ``WEAVER_DATA_DIR``. A row is authority only when it carries a MAC
(HMAC-SHA256) over its whole content, made with this user's own key when the user acted.

The key lives in the user's state folder (never in the data folder a store path may point at),
is made on first use with ``O_CREAT | O_EXCL`` and mode ``0600`` so two processes agree on one
key, and is never logged, exported, shown nor copied into a store.

Authority-bearing rows of ``storage/`` and their readers:

- ``accepted_patches`` (record, conversation, patch id, file, hashes, time) - read by rewind
  (:mod:`agents.patch_review.rewind`) and the ACP turn before undo/redo writes a file.
  **Signed and verified here** (kind :data:`ACCEPTED_PATCH`).
- ``consent_requests`` answers (decision, edited words) - read by the mediator before it
  shares what draws on a participant's words (:mod:`agents.shared_space.consent`) and by the
  seats that show open questions. **Signed and verified here** (kind :data:`CONSENT_ANSWER`);
  an answer that does not verify is read as no answer: the question stays open.
- ``space_seats`` (a link's token per participant) - read by the space server and the seat
  app before a person is let in as a participant. **Signed and verified here** (kind
  :data:`SEAT`: token, conversation, participant, time); a seat that does not verify opens
  nothing. ``seat_messages`` are what a verified seat sent, queued for the host. Not signed:
  a row written in reads as a message from that participant (remaining work).
- ``statement_answers`` (a participant's answer at their seat). Not yet signed.

Rows written before this change carry no MAC: they are history, never authority (undo is not
offered for them); the migration only adds the column. A row whose MAC does not verify under
this user's key (another key, any column edited, copied to another record or conversation) is
history as well. Copying a branch re-signs the copies of rows that verified, because the copy
is the user's own act here; rows that did not verify are not copied as authority.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from platformdirs import user_state_dir

ACCEPTED_PATCH = "accepted_patch"
"""A patch the user accepted in the review: undo and redo may write it back."""

CONSENT_ANSWER = "consent_answer"
"""A participant's answer to a consent request, given at their seat through this process."""

SEAT = "seat"
"""A participant's seat (the token of their link) that the user opened for a shared space."""

AUTHORITY_KINDS = frozenset({ACCEPTED_PATCH, CONSENT_ANSWER, SEAT})
"""The kinds of row this module signs; anything else is refused rather than signed."""

_KEY_FILE = "authority.key"
_KEY_BYTES = 32


def key_path() -> Path:
    """Where this user's authority key lives: the user's state folder, not the data folder."""
    return Path(user_state_dir("weaver-tui", appauthor=False)) / _KEY_FILE


def user_key(path: Path | None = None) -> bytes:
    """This user's authority key, made on first use (race-free: the first creator wins)."""
    target = path or key_path()
    try:
        return _read_key(target)
    except FileNotFoundError:
        pass
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_key(target)
    with os.fdopen(fd, "wb") as out:
        out.write(secrets.token_bytes(_KEY_BYTES))
    return _read_key(target)


def _read_key(path: Path) -> bytes:
    key = path.read_bytes()
    if len(key) != _KEY_BYTES:
        # a key being written by another process right now, or a damaged file: no authority
        raise FileNotFoundError(path) if not key else ValueError("authority key is damaged")
    return key


def sign(kind: str, fields: Sequence[str | None], key: bytes | None = None) -> str:
    """The MAC of one authority row of ``kind`` over all its ``fields`` (in column order)."""
    if kind not in AUTHORITY_KINDS:
        raise ValueError(f"not an authority kind: {kind!r}")
    message = json.dumps([kind, *fields], ensure_ascii=True, separators=(",", ":"))
    return hmac.new(key or user_key(), message.encode(), hashlib.sha256).hexdigest()


def verifies(
    kind: str, fields: Sequence[str | None], mac: str | None, key: bytes | None = None
) -> bool:
    """The row was made by this user here: its MAC verifies under this user's key."""
    if kind not in AUTHORITY_KINDS or not mac:
        return False
    try:
        expected = sign(kind, fields, key)
    except ValueError:
        return False
    return hmac.compare_digest(expected, mac)
