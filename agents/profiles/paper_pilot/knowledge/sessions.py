"""The knowledge sessions of a run: one per (event loop, server, connection), shared by the
profile's warm-up and every turn that follows, so the server the warm-up started is the one the
first question asks (starting a server costs far more than a turn); each closes when idle
(``IDLE_TIMEOUT_S``) and the next use opens a new one."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.profile import WarmUpContext
from agents.profiles.paper_pilot.commands import index_path
from agents.profiles.paper_pilot.knowledge.client import (
    KnowledgeClient,
    KnowledgeError,
    chosen_connection,
)

_CLIENTS: dict[tuple[int, str, str], KnowledgeClient] = {}


def knowledge_session(data_dir: Path | None, settings: Mapping[str, Any]) -> KnowledgeClient:
    """The open (or opening) session to the chosen knowledge server, else a new one; raises
    :class:`KnowledgeError` when the configured server is not one of the connections."""
    # No data folder (a runtime embedded without one): a throwaway index of the shipped notes.
    data_dir = data_dir or Path(tempfile.gettempdir()) / f"weaver-tui-{os.getuid()}"
    name, connection = chosen_connection(settings, index_path(data_dir))
    key = (id(asyncio.get_running_loop()), name, json.dumps(connection, sort_keys=True))
    client = _CLIENTS.get(key)
    if client is None or not client.usable:
        client = _CLIENTS[key] = KnowledgeClient(name, connection)
    return client


def open_knowledge_soon(data_dir: Path | None, settings: Mapping[str, Any]) -> None:
    """Start the knowledge session in the background; a misconfigured or failing server is
    said by the first stage that needs it, never here."""
    with contextlib.suppress(KnowledgeError):
        knowledge_session(data_dir, settings).open_soon()


def warm_up(context: WarmUpContext) -> None:
    """paper-pilot's warm-up: the knowledge server starts while the user types, so the first
    question's ``scope`` finds its collections at once."""
    open_knowledge_soon(context.data_dir, context.settings)
