"""Storage URLs: which backend a ``storage.url`` names, and how to show one without its password.

``storage.url`` is empty (the SQLite file in the data folder, the default) or a PostgreSQL URL
(``postgresql://user:password@host:5432/db``, ``postgres://`` also accepted). A password in
the URL is never shown: :func:`redact_url` replaces it with ``***`` wherever a URL reaches a
sentence, a log or the screen.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from storage.store import StorageError

POSTGRES_SCHEMES = ("postgresql", "postgres")

_PASSWORD = re.compile(r"(?P<head>://[^:/@?#]*):(?P<secret>[^/?#]*)@")
_QUERY_PASSWORD = re.compile(r"(?i)(?P<head>[?&]password=)[^&#]*")


def redact_url(url: str) -> str:
    """``url`` with any password (in the authority or as ``?password=``) shown as ``***``."""
    text = _PASSWORD.sub(lambda m: f"{m['head']}:***@", url)
    return _QUERY_PASSWORD.sub(lambda m: f"{m['head']}***", text)


def is_postgres_url(url: str | None) -> bool:
    """Whether ``url`` names a PostgreSQL server (else the store is the SQLite file)."""
    if not url:
        return False
    return url.split(":", 1)[0].lower() in POSTGRES_SCHEMES


def check_storage_url(url: str) -> str:
    """``url`` if it is a storage URL weaver-tui understands, else one :class:`StorageError`
    sentence saying what to write instead."""
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    shown = redact_url(url)
    if scheme not in POSTGRES_SCHEMES:
        raise StorageError(
            f"The storage URL {shown!r} is not a PostgreSQL URL; write "
            "postgresql://user:password@host:5432/database, or leave storage.url empty for "
            "the SQLite file."
        )
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises on a port that is not a number
    except ValueError as err:
        raise StorageError(
            f"The storage URL {shown!r} cannot be read ({_redacted_reason(err, url)}); write "
            "postgresql://user:password@host:5432/database."
        ) from None
    return url


def _redacted_reason(err: Exception, url: str) -> str:
    reason = str(err)
    password = urlsplit(url).password if "@" in url else None
    return reason.replace(password, "***") if password else reason
