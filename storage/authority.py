"""Authority rows count only when this user made them here: one key, one verifier.

Some rows of a store grant the product the right to act: undo and redo write a patch back
into the project only because ``accepted_patches`` says the user accepted it. A store file is
data, though: it can be copied from another machine or user, restored from a backup, crafted
and opened through ``WEAVER_DATA_DIR``. A row is authority only when it carries a MAC
(HMAC-SHA256) over its whole content, made with this user's own key when the user acted.

The key lives in the user's state folder (never in the data folder a store path may point at),
is made on first use, whole and private (mode ``0600``), so that processes starting together
agree on one key (:func:`user_key`), and is never logged, exported, shown nor copied into a
store. A damaged or shared key is refused with one sentence, never used.

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
  nothing.
- ``seat_messages`` (a participant's words in line for the host, which stores and answers
  them as that participant's) - read by the host's space runner and the seats. **Signed and
  verified here** (kind :data:`SEAT_MESSAGE`: place, conversation, sender, words, audience,
  time); a row that does not verify is neither shown nor answered.
- ``statement_answers`` (a participant's verdict on a statement, its critique and whether
  they shared it) - read by the mediator's statement board ("agreed") and the seats.
  **Signed and verified here** (kind :data:`STATEMENT_ANSWER`); a row that does not verify
  is no answer and does not count toward "everyone answered".

- conversation meta ``tools_approved`` (tools the user answered "always") - read by the
  approval step before a tool runs unasked (:mod:`agents.graph.approval`). **Signed and
  verified there** (kind :data:`TOOL_APPROVAL`, the MAC kept beside it in the meta).

Not yet signed (a store file can still carry them; import drops them by allowlist,
:mod:`storage.import_meta`, but a copied file is not an import): the other conversation and
record meta keys the runtime reads as decisions - instructions, model options, project root,
pins and exclusions, summary marks, pending questions, draft verdicts, patch status.

Rows written before this change carry no MAC: they are history, never authority (undo is not
offered for them); the migration only adds the column. A row whose MAC does not verify under
this user's key (another key, any column edited, copied to another record or conversation) is
history as well. Copying a branch re-signs the copies of rows that verified, because the copy
is the user's own act here; rows that did not verify are not copied as authority.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import tempfile
from collections.abc import Sequence
from pathlib import Path

from platformdirs import user_state_dir

from storage.store import StorageError

ACCEPTED_PATCH = "accepted_patch"
"""A patch the user accepted in the review: undo and redo may write it back."""

CONSENT_ANSWER = "consent_answer"
"""A participant's answer to a consent request, given at their seat through this process."""

SEAT = "seat"
"""A participant's seat (the token of their link) that the user opened for a shared space."""

SEAT_MESSAGE = "seat_message"
"""A message a participant sent at a seat served here, in line for the host to answer."""

STATEMENT_ANSWER = "statement_answer"
"""A participant's answer to a statement (and whether they shared it), given at their seat."""

TOOL_APPROVAL = "tool_approval"
"""The tools the user answered "always" for one conversation (its meta ``tools_approved``)."""

AUTHORITY_KINDS = frozenset(
    {ACCEPTED_PATCH, CONSENT_ANSWER, SEAT, SEAT_MESSAGE, STATEMENT_ANSWER, TOOL_APPROVAL}
)
"""The kinds of row this module signs; anything else is refused rather than signed."""

_KEY_FILE = "authority.key"
_KEY_BYTES = 32


KEY_FILE_ENV = "WEAVER_AUTHORITY_KEY_FILE"
"""Names the key file in place of the state folder's: the hosts of one team deployment (one
PostgreSQL database, several hosts serving its seats) share one key, so that what the user
did through one host is authority on the others. It is the user's own environment, trusted
like the config; the key it names is checked as any other (size, mode ``0600``)."""


def key_path() -> Path:
    """Where this user's authority key lives: the file :data:`KEY_FILE_ENV` names, else the
    user's state folder; never the data folder."""
    named = os.environ.get(KEY_FILE_ENV, "").strip()
    if named:
        return Path(named).expanduser()
    return Path(user_state_dir("weaver-tui", appauthor=False)) / _KEY_FILE


_known_keys: dict[Path, bytes] = {}


def user_key(path: Path | None = None) -> bytes:
    """This user's authority key, made on first use.

    Race-free: the key is written whole into a private temporary file (``mkstemp``: ``O_EXCL``,
    mode ``0600``) and then linked to its name, which fails if another process linked first;
    every process then reads the one key that won, never a file half written. A key that is
    not exactly the key's size, cannot be read, or can be read by other users raises
    :class:`~storage.store.StorageError` with one sentence saying what to do."""
    target = path or key_path()
    known = _known_keys.get(target)
    if known is not None:
        return known
    if not target.exists():
        _create_key(target)
    key = _read_key(target)
    _known_keys[target] = key
    return key


def _create_key(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".authority-")
    except OSError as err:
        raise StorageError(
            f"Cannot make the authority key in {target.parent} ({err.strerror}); make that "
            "folder writable for your user."
        ) from err
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(_KEY_BYTES))
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(temporary, target)  # another process's key won: it is the key
    finally:
        os.unlink(temporary)


def _read_key(path: Path) -> bytes:
    damaged = (
        f"The authority key {path} is damaged or not private; move it aside and weaver-tui "
        "will make a new one (what was accepted with the old key is then history)."
    )
    try:
        mode = path.stat().st_mode
        key = path.read_bytes()
    except OSError as err:
        raise StorageError(damaged) from err
    if len(key) != _KEY_BYTES or (os.name == "posix" and mode & 0o077):
        raise StorageError(damaged)
    return key


def sign(kind: str, fields: Sequence[object], key: bytes | None = None) -> str:
    """The MAC of one authority row of ``kind`` over all its ``fields`` (in column order)."""
    if kind not in AUTHORITY_KINDS:
        raise ValueError(f"not an authority kind: {kind!r}")
    message = json.dumps([kind, *fields], ensure_ascii=True, separators=(",", ":"), default=repr)
    return hmac.new(key or user_key(), message.encode(), hashlib.sha256).hexdigest()


def verifies(kind: str, fields: Sequence[object], mac: object, key: bytes | None = None) -> bool:
    """The row was made by this user here: its MAC verifies under this user's key. Anything
    else a store may hold in the MAC column (nothing, a number, bytes, any text) is False."""
    if kind not in AUTHORITY_KINDS or not isinstance(mac, str) or not mac:
        return False
    expected = sign(kind, fields, key)
    return hmac.compare_digest(expected.encode(), mac.encode("utf-8", "surrogatepass"))
