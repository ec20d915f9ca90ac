"""One SQLite connection shared by threads, opened with the pragmas the store relies on.

The store is called from the Textual event loop and from worker threads, so there is one
connection (``check_same_thread=False``) behind a re-entrant lock. Writes that read before
they write (a new record's version, the remembered branch) run in ``BEGIN IMMEDIATE``
transactions, which take SQLite's write lock up front: a second process on the same file waits
(``busy_timeout``) instead of computing a duplicate version. WAL with ``synchronous=NORMAL``
keeps a commit to a few hundred microseconds and survives a killed process (only a power
cut can lose the last commits).

Every ``sqlite3`` error leaves this module as a :class:`StorageError` with one sentence.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from storage.audience import register_name_key
from storage.schema import LATEST_VERSION, foreign_tables, migrate, schema_version
from storage.store import StorageError

logger = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 10.0

_DAMAGE_SIGNS = (
    "malformed",
    "corrupt",
    "vtable constructor failed",
    "could not decode",
)
"""Words in SQLite's errors when the file's pages hold garbage (a bad disk, a copy cut short)."""


class Database:
    """The connection, its lock, and error translation for one conversation database file."""

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self._lock = threading.RLock()
        self._conn = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StorageError(
                f"Cannot create the data folder {self.path.parent} ({err.strerror}); "
                "set WEAVER_DATA_DIR to a writable folder."
            ) from err
        try:
            conn = sqlite3.connect(
                self.path,
                timeout=self.busy_timeout_s,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as err:
            raise self._translate(err) from err
        try:
            self._configure(conn)
        except sqlite3.Error as err:
            conn.close()
            raise self._translate(err) from err
        except StorageError:
            conn.close()
            raise
        return conn

    def _configure(self, conn: sqlite3.Connection) -> None:
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        register_name_key(conn)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            logger.warning("WAL unavailable for %s, using journal_mode=%s", self.path, mode)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA cache_size = -16000")
        conn.execute("PRAGMA temp_store = MEMORY")
        version = schema_version(conn)
        if version > LATEST_VERSION:
            raise StorageError(
                f"{self.path} was written by a newer weaver-tui (schema {version}, this one "
                f"knows {LATEST_VERSION}); upgrade weaver-tui or point WEAVER_DATA_DIR elsewhere."
            )
        if version == 0 and (others := foreign_tables(conn)):
            raise StorageError(
                f"{self.path} is another program's SQLite database (tables: "
                f"{', '.join(sorted(others)[:3])}); point WEAVER_DATA_DIR at a folder of its own."
            )
        if version < LATEST_VERSION:
            start, end = migrate(conn)
            if start != end:
                logger.info("migrated %s from schema %d to %d", self.path, start, end)

    def _translate(self, err: sqlite3.Error) -> StorageError:
        detail = str(err) or type(err).__name__
        lowered = detail.lower()
        if isinstance(err, sqlite3.ProgrammingError) and "closed" in lowered:
            return StorageError(f"The conversation store on {self.path} is closed; open it again.")
        if "locked" in lowered or "busy" in lowered:
            return StorageError(
                f"The conversation database {self.path} stayed locked by another process for "
                f"{self.busy_timeout_s:g} s; close the other weaver-tui or try again."
            )
        if "full" in lowered:
            return StorageError(f"The disk holding {self.path} is full; free some space.")
        if "readonly" in lowered or "unable to open" in lowered:
            return StorageError(
                f"Cannot open {self.path} for writing ({detail}); check the file's permissions."
            )
        if any(sign in lowered for sign in _DAMAGE_SIGNS):
            return StorageError(
                f"The conversation database {self.path} is damaged ({detail}); move it aside or "
                "restore a backup, and weaver-tui will start a new one."
            )
        if isinstance(err, sqlite3.IntegrityError):
            return StorageError(
                f"The conversation database {self.path} refused a change ({detail})."
            )
        return StorageError(
            f"{self.path} is not a readable weaver-tui database ({detail}); move it aside or "
            "restore a backup, and weaver-tui will start a new one."
        )

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection for reads (and single self-committing statements), under the lock."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as err:
                raise self._translate(err) from err

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """An immediate transaction, committed on success and rolled back on any exception.

        Re-entrant: inside an open transaction it simply yields the connection.
        """
        with self._lock:
            conn = self._conn
            if conn.in_transaction:
                yield conn
                return
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    self._rollback(conn)
                    raise
                conn.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback(conn)
                raise self._translate(err) from err

    def _rollback(self, conn: sqlite3.Connection) -> None:
        """Undo the open transaction, if SQLite has not already (it rolls back by itself
        after some errors, such as a damaged page); the original error is the one to report."""
        if not conn.in_transaction:
            return
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error as err:
            logger.warning("rollback failed on %s: %s", self.path, err)

    def close(self) -> None:
        """Let SQLite refresh its query-planner statistics if it wants to, then close.

        ``analysis_limit`` makes that refresh sample each index instead of reading it whole,
        as SQLite advises: on a store of a million records a full ANALYZE of the messages
        table took 150-280 ms of every close after a conversation was opened.
        """
        with self._lock:
            try:
                self._conn.execute("PRAGMA analysis_limit = 400")
                self._conn.execute("PRAGMA optimize")
            except sqlite3.Error as err:
                logger.debug("PRAGMA optimize failed on %s: %s", self.path, err)
            self._conn.close()
