"""A pool of PostgreSQL connections for one weaver-tui database, with its tables set up.

The store protocol is synchronous, so this is psycopg's synchronous pool. Connections are in
autocommit mode: a read is one statement and holds nothing open; :meth:`PgDatabase.write` is a
transaction that first takes the database's write lock (:data:`storage.pg_schema.WRITE_LOCK`),
so writes are serialised as they are on the SQLite file. Both are re-entrant within a thread:
inside a write, a read or a nested write uses the same connection and transaction.

Every failure leaves this module as a :class:`StorageError` with one sentence that names the
server without the password (:func:`storage.pg_url.redact_url`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from storage.pg_schema import LATEST_VERSION, MIGRATIONS, SETUP_LOCK, WRITE_LOCK
from storage.pg_url import check_storage_url, redact_url
from storage.store import StorageError

logger = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]
"""A connection whose rows are plain tuples."""

CONNECT_TIMEOUT_S = 10
POOL_SIZE = 8


class PgDatabase:
    """The pool, its per-thread transactions, and error translation for one database URL."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        self.url = check_storage_url(url)
        self.shown = redact_url(url)
        self._local = threading.local()
        self._setup()
        self._pool = ConnectionPool(
            self.url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S},
            timeout=CONNECT_TIMEOUT_S,
            open=False,
            name="weaver-store",
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        except PoolTimeout as err:
            raise StorageError(
                f"Cannot reach the PostgreSQL server of {self.shown}; start it or fix storage.url."
            ) from err

    def connect(self, *, autocommit: bool = True) -> Conn:
        """A connection of its own (not from the pool): for a lock or a ``LISTEN`` that lasts."""
        return connect(self.url, autocommit=autocommit)

    def _setup(self) -> None:
        """Create or migrate the tables, once, even with several hosts starting together."""
        with self.connect(autocommit=False) as conn:
            try:
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", SETUP_LOCK)
                exists = conn.execute("SELECT to_regclass('weaver_schema')").fetchone()
                version = 0
                if exists and exists[0] is not None:
                    row = conn.execute("SELECT max(version) FROM weaver_schema").fetchone()
                    version = int(row[0]) if row and row[0] is not None else 0
                if version > LATEST_VERSION:
                    raise StorageError(
                        f"The database {self.shown} was written by a newer weaver-tui (schema "
                        f"{version}, this one knows {LATEST_VERSION}); upgrade weaver-tui."
                    )
                for script in MIGRATIONS[version:]:
                    conn.execute(script.encode())
                if version < LATEST_VERSION:
                    conn.execute("DELETE FROM weaver_schema")
                    conn.execute("INSERT INTO weaver_schema VALUES (%s)", (LATEST_VERSION,))
                    logger.info("set up %s at schema %d", self.shown, LATEST_VERSION)
                conn.commit()
            except psycopg.Error as err:
                raise self.translate(err) from None

    def translate(self, err: BaseException) -> StorageError:
        return translate(err, self.url)

    @contextmanager
    def read(self) -> Iterator[Conn]:
        """A connection for reads (each statement commits by itself), or the open write's."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.Error as err:
            raise self.translate(err) from None
        except PoolTimeout:
            raise StorageError(
                f"Cannot reach the PostgreSQL server of {self.shown}; start it or fix storage.url."
            ) from None

    @contextmanager
    def write(self) -> Iterator[Conn]:
        """A transaction holding the write lock, committed on success, rolled back on any
        exception; inside an open write it simply yields that connection."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", WRITE_LOCK)
                self._local.conn = conn
                try:
                    yield conn
                finally:
                    self._local.conn = None
        except psycopg.Error as err:
            raise self.translate(err) from None
        except PoolTimeout:
            raise StorageError(
                f"Cannot reach the PostgreSQL server of {self.shown}; start it or fix storage.url."
            ) from None

    def close(self) -> None:
        self._pool.close()


def translate(err: BaseException, url: str) -> StorageError:
    """One sentence for a psycopg error, naming the server but never its password."""
    shown = redact_url(url)
    detail = _first_line(str(err)) or type(err).__name__
    password = urlsplit(url).password
    if password:
        detail = detail.replace(password, "***")
    lowered = detail.lower()
    if isinstance(err, pg_errors.InvalidPassword) or "password authentication" in lowered:
        return StorageError(
            f"The PostgreSQL server of {shown} refused the user name or password; "
            "fix them in storage.url."
        )
    if isinstance(err, pg_errors.InvalidCatalogName) or (
        "database" in lowered and "does not exist" in lowered
    ):
        return StorageError(
            f"The database named in {shown} does not exist; create it (createdb) or "
            "fix storage.url."
        )
    if isinstance(err, psycopg.OperationalError) and (
        "connect" in lowered
        or "refused" in lowered
        or "timeout" in lowered
        or "translate host" in lowered
        or "no route" in lowered
    ):
        return StorageError(
            f"Cannot reach the PostgreSQL server of {shown} ({detail}); start it or "
            "fix storage.url."
        )
    if isinstance(err, pg_errors.InsufficientPrivilege):
        return StorageError(
            f"The user of {shown} may not do this ({detail}); grant it the rights on the database."
        )
    if isinstance(err, psycopg.IntegrityError):
        return StorageError(f"The database {shown} refused a change ({detail}).")
    return StorageError(f"The database {shown} failed ({detail}); try again.")


def connect(url: str, *, autocommit: bool = True) -> Conn:
    """A connection to ``url``, or a :class:`StorageError` sentence saying why not."""
    try:
        return psycopg.connect(
            check_storage_url(url), autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT_S
        )
    except psycopg.Error as err:
        raise translate(err, url) from None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
