"""paper-pilot's "Knowledge base" key (``/kb``): one sentence on the collections its research
turns search, the local index's (as ``weaver-tui kb list``), or where they come from when a
knowledge server is configured."""

from __future__ import annotations

from agents.profile import ProfileContext
from storage.printable import printable


def knowledge_base(context: ProfileContext) -> str:
    """The collections of the user's knowledge index, in one sentence."""
    from agents.profiles.paper_pilot.commands import index_path
    from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex

    if (context.settings.get("mcp") or {}).get("connections"):
        return (
            "The knowledge base is the server in your mcp.connections: "
            "weaver-tui kb list asks it for its collections."
        )
    if context.data_dir is None:
        return "There is no data folder, so no knowledge index to read."
    with KnowledgeIndex(index_path(context.data_dir)) as index:
        index.ensure_sample()
        rows = index.collections()
    parts = [f"{printable(str(row['name']))} ({row.get('documents', 0)} documents)" for row in rows]
    if not parts:
        return "The knowledge base is empty: weaver-tui kb add DIR indexes a folder of notes."
    return "The knowledge base holds " + ", ".join(parts) + "; weaver-tui kb add DIR adds a folder."
