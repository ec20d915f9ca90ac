"""Full-text search on PostgreSQL: its own text search over every branch of every conversation.

User text never reaches ``to_tsquery``'s syntax: PostgreSQL itself cuts the text into lexemes
(``to_tsvector('weaver_text', ...)``, see :mod:`storage.pg_schema`), and the query is built from those lexemes, each quoted, so
``foo"(``, ``!``, ``&`` or ``:*`` are searched as text and cannot raise. Terms are ANDed and
the last one matches as a prefix (search-as-you-type), as on SQLite (:mod:`storage.search`),
whose snippet marks and ranking rule this module shares.
"""

from __future__ import annotations

from storage.audience import Viewer, viewer_key
from storage.pg_audience import conversation_condition
from storage.pg_database import Conn
from storage.search import ELLIPSIS, HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, RANKED_MATCHES
from storage.store import SearchHit

_HEADLINE = (
    f"StartSel={HIGHLIGHT_OPEN}, StopSel={HIGHLIGHT_CLOSE}, MaxWords=12, MinWords=4, "
    f"MaxFragments=1, FragmentDelimiter={ELLIPSIS}"
)

_SEARCH_SQL = """
SELECT hit.conversation_id, hit.title, hit.id, hit.role,
       ts_headline('weaver_text', hit.content || ' ' || hit.tool_text, %(query)s::tsquery,
                   %(headline)s)
FROM (
    SELECT m.conversation_id, c.title, m.id, m.role, m.content, m.tool_text, m.seq,
           ts_rank(m.search, %(query)s::tsquery) AS rank
    FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE m.search @@ %(query)s::tsquery{audience}
    ORDER BY {order}
    LIMIT %(limit)s
) AS hit
ORDER BY {outer}
"""
_AUDIENCE = f" AND {conversation_condition('c', 'm')}"
_RANKED = {"order": "rank DESC, m.seq DESC", "outer": "hit.rank DESC, hit.seq DESC"}
_NEWEST = {"order": "m.seq DESC", "outer": "hit.seq DESC"}
_COUNT_SQL = (
    "SELECT count(*) FROM (SELECT 1 FROM messages WHERE search @@ %s::tsquery LIMIT %s) AS hits"
)


def _quoted(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery_text(conn: Conn, text: str) -> str | None:
    """The ``tsquery`` for ``text``: its terms ANDed, the last as a prefix; ``None`` if
    ``text`` holds no searchable word."""
    terms = [term.replace("\x00", "") for term in text.split()]
    terms = [term for term in terms if term]
    if not terms:
        return None
    parts: list[str] = []
    for index, term in enumerate(terms):
        row = conn.execute(
            "SELECT tsvector_to_array(to_tsvector('weaver_text', %s))", (term,)
        ).fetchone()
        lexemes: list[str] = list(row[0]) if row and row[0] else []
        suffix = ":*" if index == len(terms) - 1 else ""
        parts += [_quoted(lexeme) + suffix for lexeme in lexemes]
    return " & ".join(parts) if parts else None


def search_messages(conn: Conn, text: str, limit: int, viewer: Viewer = None) -> list[SearchHit]:
    """Best matches first (``ts_rank``), across all conversations and branches; with a
    ``viewer``, a shared space's records only when they may read them."""
    if limit <= 0:
        return []
    query = tsquery_text(conn, text)
    if query is None:
        return []
    count_row = conn.execute(_COUNT_SQL, (query, RANKED_MATCHES + 1)).fetchone()
    ranked = (count_row[0] if count_row else 0) <= RANKED_MATCHES
    sql = _SEARCH_SQL.replace("{audience}", "" if viewer is None else _AUDIENCE)
    for key, value in (_RANKED if ranked else _NEWEST).items():
        sql = sql.replace("{" + key + "}", value)
    params = {
        "query": query,
        "headline": _HEADLINE,
        "limit": limit,
        "viewer": None if viewer is None else viewer_key(viewer),
    }
    rows = conn.execute(sql.encode(), params).fetchall()
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
