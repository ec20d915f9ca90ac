"""Full-text search over every branch of every conversation (FTS5), safe for any user input.

User text never reaches FTS5's query syntax: each whitespace-separated term becomes a quoted
phrase (quotes doubled), so ``foo"(``, ``NEAR(``, ``col:x`` or ``AND`` are searched as text
and cannot raise. Terms are ANDed; the last one matches as a prefix, for search-as-you-type.
A reply is searchable once it stops streaming (see :mod:`storage.schema`).

Matches are ranked by relevance (bm25) when there are at most :data:`RANKED_MATCHES` of them;
a term found in more messages than that lists the newest matches first: ranking every match
of a common word costs time in proportion to the matches (0.6 s for half a million), while
reading the newest ones costs about the same at any size.
"""

from __future__ import annotations

import sqlite3

from storage.audience import Viewer, conversation_condition, viewer_key
from storage.store import SearchHit

HIGHLIGHT_OPEN = "«"
"""Marks the start of a matched term in :attr:`SearchHit.snippet`."""
HIGHLIGHT_CLOSE = "»"
ELLIPSIS = "…"
SNIPPET_TOKENS = 12

RANKED_MATCHES = 5000
"""At most this many matches are ranked by relevance; more are listed newest first."""

_SEARCH_SQL = """
SELECT m.conversation_id, c.title, m.id, m.role,
       snippet(messages_fts, -1, :open, :close, :ellipsis, :tokens)
FROM messages_fts
JOIN messages m ON m.rowid = messages_fts.rowid
JOIN conversations c ON c.id = m.conversation_id
WHERE messages_fts MATCH :query{audience}
ORDER BY {order}
LIMIT :limit
"""
_AUDIENCE = f" AND {conversation_condition('c', 'm')}"
_BY_RANK = _SEARCH_SQL.format(order="rank", audience="")
_NEWEST_FIRST = _SEARCH_SQL.format(order="messages_fts.rowid DESC", audience="")
_BY_RANK_FOR_VIEWER = _SEARCH_SQL.format(order="rank", audience=_AUDIENCE)
_NEWEST_FIRST_FOR_VIEWER = _SEARCH_SQL.format(order="messages_fts.rowid DESC", audience=_AUDIENCE)
_COUNT_SQL = "SELECT count(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)"


def fts_query(text: str) -> str | None:
    """The FTS5 query for ``text``: quoted terms, the last as a prefix; ``None`` if empty."""
    terms = [term.replace("\x00", "") for term in text.split()]
    phrases = ['"' + term.replace('"', '""') + '"' for term in terms if term]
    if not phrases:
        return None
    phrases[-1] += "*"
    return " ".join(phrases)


def search_messages(
    conn: sqlite3.Connection, text: str, limit: int, viewer: Viewer = None
) -> list[SearchHit]:
    """Best matches first (bm25), across all conversations and branches; with a ``viewer``,
    in a shared space only the records they may read (:mod:`storage.audience`)."""
    query = fts_query(text)
    if query is None or limit <= 0:
        return []
    (matches,) = conn.execute(_COUNT_SQL, (query, RANKED_MATCHES + 1)).fetchone()
    ranked = matches <= RANKED_MATCHES
    if viewer is None:
        sql = _BY_RANK if ranked else _NEWEST_FIRST
    else:
        sql = _BY_RANK_FOR_VIEWER if ranked else _NEWEST_FIRST_FOR_VIEWER
    params = {
        "open": HIGHLIGHT_OPEN,
        "close": HIGHLIGHT_CLOSE,
        "ellipsis": ELLIPSIS,
        "tokens": SNIPPET_TOKENS,
        "query": query,
        "limit": limit,
        "viewer": None if viewer is None else viewer_key(viewer),
    }
    rows = conn.execute(sql, params).fetchall()
    return [
        SearchHit(
            conversation_id=conv_id,
            conversation_title=title,
            message_id=msg_id,
            role=role,
            snippet=snippet,
        )
        for conv_id, title, msg_id, role, snippet in rows
    ]
