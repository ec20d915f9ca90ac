"""LangGraph's checkpointer for the graph runtime, in weaver's data folder.

Graph state inside a turn, and anything that must outlive the process (an ``interrupt()``
waiting for the user's decision on a patch), lives in ``checkpoints.sqlite`` next to the
conversation database. A separate file keeps LangGraph's tables and its aiosqlite connection
apart from the store's own connection and schema versioning.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from storage.paths import checkpoints_db
from storage.secrets import scrub_text
from storage.store import StorageError

logger = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000


@asynccontextmanager
async def open_checkpointer(data_dir: Path) -> AsyncIterator[AsyncSqliteSaver]:
    """An ``AsyncSqliteSaver`` on ``data_dir / "checkpoints.sqlite"``, set up and ready.

    Raises :class:`StorageError` (one sentence) if the folder or the file is unusable.
    """
    path = checkpoints_db(Path(data_dir))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StorageError(
            f"Cannot create the data folder {path.parent} ({err.strerror}); "
            "set WEAVER_DATA_DIR to a writable folder."
        ) from err
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        try:
            await saver.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await saver.setup()
        except sqlite3.DatabaseError as err:
            raise StorageError(
                f"{path} is not a readable checkpoint database ({err}); move it aside and "
                "weaver-tui will start a new one (paused reviews in it are lost)."
            ) from err
        saver.serde = ScrubbingSerializer(saver.serde)
        logger.debug("checkpointer open on %s", path)
        yield saver


class ScrubbingSerializer:
    """LangGraph's serializer, except that a failed task's exception (stored as its ``repr``)
    is scrubbed of keys first: a provider error may quote the key it was sent."""

    def __init__(self, inner: SerializerProtocol) -> None:
        self.inner = inner

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        if isinstance(obj, BaseException):
            obj = scrub_text(repr(obj))
        return self.inner.dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        return self.inner.loads_typed(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
