"""paper-pilot's reach into the knowledge base: the MCP session kept across turns, a search
reported on a stage line, the merge of several searches, and the guard that turns an
unreachable server into the retrieval's one sentence."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agents.graph import emit_status
from agents.profile import TurnContext
from agents.profiles.paper_pilot.knowledge.client import KnowledgeClient, KnowledgeError
from agents.profiles.paper_pilot.knowledge.sessions import knowledge_session
from agents.profiles.paper_pilot.knowledge.sessions import open_knowledge_soon as open_session_soon
from agents.profiles.paper_pilot.source_list import merge_sources
from agents.profiles.paper_pilot.stage_tools import Node
from agents.profiles.paper_pilot.state import PaperPilotState

TOP_K = 4


def knowledge_client(context: TurnContext) -> KnowledgeClient:
    """The turn's knowledge session: the run's shared one (see :mod:`.knowledge.sessions`)."""
    return knowledge_session(context.data_dir, context.settings)


def open_knowledge_soon(context: TurnContext) -> None:
    """Start the knowledge session in the background as the turn starts (the profile's warm-up
    may have started it already); ``scope``, the first stage to need it, waits for it."""
    open_session_soon(context.data_dir, context.settings)


async def retrieve(
    context: TurnContext, query: str, node: str, collections: list[str] | None = None
) -> list[dict[str, Any]]:
    """The knowledge base's best chunks for ``query`` (in ``collections`` only, when the
    question named some), reported on a stage line."""
    where = f" in {', '.join(collections)}" if collections else ""
    emit_status(node, f"retrieve: {query}{where}")
    client = knowledge_client(context)
    found = [await client.query(query, TOP_K, name) for name in collections or [""]]
    chunks = [
        {**chunk.as_dict(), "collection": chunk.collection or name}
        for name, group in zip(collections or [""], found, strict=True)
        for chunk in group
    ]
    if collections:  # a server that searched elsewhere too: its other collections left out
        wanted = {name.casefold() for name in collections}
        chunks = [c for c in chunks if str(c["collection"]).casefold() in wanted]
    if len(found) > 1:
        chunks = sorted(chunks, key=lambda c: -float(c["score"] or 0.0))[:TOP_K]
    chunks = merge_sources(chunks)
    emit_status(node, f"retrieve: {query}{where} → {len(chunks)} chunks", "done")
    return chunks


def merge_chunks(*groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chunks of several retrievals, each passage once (:func:`.source_list.merge_sources`),
    in order of first appearance."""
    return merge_sources(*groups)


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
