"""``session/list``: the profile's conversations as ACP sessions, newest first, a page at a time.

Each conversation is listed once, under the id that opens it with ``session/load`` or
``session/resume``: the id of the ACP session that started it, else its own id. Its folder is
its stored project root or the folder its session was opened in; a conversation that keeps
neither (one started in the app for a profile without a project) may be opened in any folder,
so it is listed under the folder asked for (or the agent's own).

The cursor is opaque to the client: it encodes how many sessions came before the page. A
cursor this agent did not give is refused with one sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from acp.schema import SessionInfo

from storage.models import Conversation
from weaver_tui.core.acp_agent.failures import turn_failure
from weaver_tui.core.acp_agent.sessions import CWD_META, SESSION_META

PAGE_SIZE = 50
_CURSOR_PREFIX = "after:"

T = TypeVar("T")


def page(
    items: Sequence[T], cursor: str | None, size: int = PAGE_SIZE
) -> tuple[list[T], str | None]:
    """The page of ``items`` that ``cursor`` points at, and the cursor of the next page
    (``None`` after the last): the pages from no cursor on, in turn, are ``items`` exactly."""
    start = _start(cursor)
    chunk = list(items[start : start + size])
    end = start + len(chunk)
    return chunk, (f"{_CURSOR_PREFIX}{end}" if end < len(items) else None)


def _start(cursor: str | None) -> int:
    if cursor is None:
        return 0
    digits = cursor.removeprefix(_CURSOR_PREFIX)
    well_formed = digits.isascii() and digits.isdigit() and len(digits) <= 9
    if cursor.startswith(_CURSOR_PREFIX) and well_formed:
        return int(digits)
    raise turn_failure(
        "That cursor is not one this agent gave: list the sessions again without a cursor.",
        "invalid_params",
    )


def folder_of(conversation: Conversation) -> str | None:
    """The folder a conversation works in, when it keeps one (an absolute path)."""
    for key in ("project_root", CWD_META):
        value = conversation.meta.get(key)
        if isinstance(value, str) and Path(value).is_absolute():
            return value
    return None


def session_infos(
    conversations: Sequence[Conversation], cwd: str | None, fallback: str
) -> list[SessionInfo]:
    """The listed sessions of ``conversations`` (newest first, as given), only those in
    ``cwd`` when it is given (with those that keep no folder)."""
    wanted = _resolved(cwd) if cwd is not None else None
    infos: list[SessionInfo] = []
    for conversation in conversations:
        folder = folder_of(conversation)
        if wanted is not None and folder is not None and _resolved(folder) != wanted:
            continue
        session_id = conversation.meta.get(SESSION_META)
        infos.append(
            SessionInfo(
                session_id=session_id if isinstance(session_id, str) else conversation.id,
                cwd=folder or cwd or fallback,
                title=conversation.title,
                updated_at=conversation.updated_at.isoformat(),
            )
        )
    return infos


def _resolved(folder: str) -> str:
    try:
        return str(Path(folder).resolve())
    except (OSError, RuntimeError, ValueError):
        return folder
