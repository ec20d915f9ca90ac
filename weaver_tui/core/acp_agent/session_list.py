"""``session/list``: the profile's conversations as sessions, newest first, a page at a time.

A conversation is listed under the id a client can load or resume it by: the id of the ACP
session that started it, else its own. Its folder is the project root it keeps, else the
folder the client gave the session that started it; with ``cwd`` given, only conversations
in that folder are listed (one with no folder is in none). The cursor is where the next page
starts in the profile's list; a list that changes between pages (a conversation answered
meanwhile moves to the top) may show one twice or skip one, as any list by recency does.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

from acp.schema import ListSessionsResponse, SessionInfo

from storage.models import Conversation
from storage.printable import printable_title
from storage.store import ConversationStore
from weaver_tui.core.acp_agent.failures import turn_failure
from weaver_tui.core.acp_agent.sessions import SESSION_CWD, SESSION_META

PAGE = 50
"""Sessions per page."""
SCAN_PAGES = 20
"""With a folder to match, how many pages of the profile's list one answer reads at most
(the next cursor goes on from there)."""
_PREFIX = "after:"


def list_page(
    store: ConversationStore, profile: str, cwd: str | None, cursor: str | None
) -> ListSessionsResponse:
    offset = _offset(cursor)
    wanted = _folder(cwd) if cwd else None
    found: list[SessionInfo] = []
    for _ in range(SCAN_PAGES):
        batch = store.list_conversations(profile, limit=PAGE, offset=offset)
        for index, conversation in enumerate(batch):
            folder = conversation_folder(conversation)
            if wanted is not None and (folder is None or _folder(folder) != wanted):
                continue
            found.append(_info(conversation, folder))
            if len(found) == PAGE:
                following = offset + index + 1
                more = following < store.count_conversations(profile)
                return ListSessionsResponse(
                    sessions=found, next_cursor=f"{_PREFIX}{following}" if more else None
                )
        offset += len(batch)
        if len(batch) < PAGE:
            return ListSessionsResponse(sessions=found)
    return ListSessionsResponse(sessions=found, next_cursor=f"{_PREFIX}{offset}")


def conversation_folder(conversation: Conversation) -> str | None:
    for key in ("project_root", SESSION_CWD):
        value = conversation.meta.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _info(conversation: Conversation, folder: str | None) -> SessionInfo:
    started_by = conversation.meta.get(SESSION_META)
    session_id = started_by if isinstance(started_by, str) and started_by else conversation.id
    updated = conversation.updated_at
    if updated.tzinfo is None:
        updated = updated.replace(tzinfo=UTC)
    return SessionInfo(
        session_id=session_id,
        cwd=folder or "",
        title=printable_title(conversation.title) or None,
        updated_at=updated.isoformat(),
    )


def _offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    number = cursor.removeprefix(_PREFIX)
    if not cursor.startswith(_PREFIX) or not number.isdigit() or len(number) > 12:
        raise turn_failure(
            "That cursor is not one this agent gave: list the sessions again from the start.",
            "bad_cursor",
        )
    return int(number)


def _folder(path: str) -> str:
    try:
        return str(Path(path).expanduser().resolve())
    except (OSError, RuntimeError, ValueError):
        return path
