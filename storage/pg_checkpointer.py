"""LangGraph's checkpointer on a PostgreSQL server: ``AsyncPostgresSaver``, with the same
scrubbing serializer as the SQLite file's (:class:`storage.checkpointer.ScrubbingSerializer`),
in the same database as the conversations (LangGraph's tables have names of their own)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from storage.checkpointer import ScrubbingSerializer
from storage.pg_database import translate
from storage.pg_url import check_storage_url, redact_url

logger = logging.getLogger(__name__)


@asynccontextmanager
async def open_pg_checkpointer(url: str) -> AsyncIterator[AsyncPostgresSaver]:
    """An ``AsyncPostgresSaver`` on ``url``, its tables set up, ready.

    Raises :class:`storage.store.StorageError` (one sentence, no password) if the server
    cannot be reached or refuses the login.
    """
    check_storage_url(url)
    try:
        opened = AsyncPostgresSaver.from_conn_string(url)
        saver = await opened.__aenter__()
    except psycopg.Error as err:
        raise translate(err, url) from None
    try:
        try:
            await saver.setup()
        except psycopg.Error as err:
            raise translate(err, url) from None
        saver.serde = ScrubbingSerializer(saver.serde)
        logger.debug("checkpointer open on %s", redact_url(url))
        yield saver
    finally:
        await opened.__aexit__(None, None, None)
