"""paper-pilot's reach into the knowledge base: the MCP session kept across turns, a search
reported on a stage line, the merge of several searches, and the guard that turns an
unreachable server into the retrieval's one sentence."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.graph import emit_status
from agents.profile import TurnContext
from agents.profiles.paper_pilot.commands import index_path
from agents.profiles.paper_pilot.knowledge.client import (
    KnowledgeClient,
    KnowledgeError,
    chosen_connection,
)
from agents.profiles.paper_pilot.stage_tools import Node
from agents.profiles.paper_pilot.state import PaperPilotState

TOP_K = 4


_CLIENTS: dict[tuple[int, str, str], KnowledgeClient] = {}
"""Knowledge sessions by (event loop, server, connection): kept open across the turns of a
run (starting a server costs far more than a turn), closed when idle (``IDLE_TIMEOUT_S``)."""


def knowledge_client(context: TurnContext) -> KnowledgeClient:
    # No data folder (a runtime embedded without one): a throwaway index of the shipped notes.
    data_dir = context.data_dir or Path(tempfile.gettempdir()) / f"weaver-tui-{os.getuid()}"
    name, connection = chosen_connection(context.settings, index_path(data_dir))
    key = (id(asyncio.get_running_loop()), name, json.dumps(connection, sort_keys=True))
    client = _CLIENTS.get(key)
    if client is None or not client.usable:
        client = _CLIENTS[key] = KnowledgeClient(name, connection)
    return client


def open_knowledge_soon(context: TurnContext) -> None:
    """Start the knowledge session in the background as the turn starts; ``scope``, the first
    stage to need it, waits for it (a warm session is already open)."""
    with contextlib.suppress(KnowledgeError):  # misconfigured: scope's line says so
        knowledge_client(context).open_soon()


async def retrieve(
    context: TurnContext, query: str, node: str, collections: list[str] | None = None
) -> list[dict[str, Any]]:
    """The knowledge base's best chunks for ``query`` (in ``collections`` only, when the
    question named some), reported on a stage line."""
    where = f" in {', '.join(collections)}" if collections else ""
    emit_status(node, f"retrieve: {query}{where}")
    client = knowledge_client(context)
    found = [await client.query(query, TOP_K, name) for name in collections or [""]]
    chunks = [chunk.as_dict() for group in found for chunk in group]
    if len(found) > 1:
        chunks = sorted(chunks, key=lambda c: -float(c["score"] or 0.0))[:TOP_K]
    emit_status(node, f"retrieve: {query}{where} → {len(chunks)} chunks", "done")
    return chunks


def merge_chunks(*groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chunks of several retrievals, each once, in order of first appearance."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for group in groups:
        for chunk in group:
            seen.setdefault((chunk["doc_id"], chunk["section"], chunk["text"][:80]), chunk)
    return list(seen.values())


def retrieval_guard(node: Node) -> Any:
    """A knowledge server that cannot be reached ends the retrieval with its sentence."""

    async def guarded(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
        try:
            return await node(state, runtime)
        except KnowledgeError as exc:
            emit_status("retrieve", str(exc), "error")
            return {"chunks": [], "error": str(exc)}

    guarded.__name__ = getattr(node, "__name__", "retrieval")
    return guarded
