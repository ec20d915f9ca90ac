"""The embedded MCP knowledge server: ``query_knowledge_hub``, ``list_collections``,
``get_document_summary`` over a :class:`KnowledgeIndex`, on stdio.

    python -m agents.profiles.paper_pilot.knowledge.server --index PATH [--sample] [--http PORT]

``--sample`` indexes the notes shipped with weaver-tui when the index has none of them. The
tools answer JSON text (one content block), the same shape a user's own RAG server is asked
for, so the profile reads either the same way.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from mcp.server.fastmcp import FastMCP

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex

SERVER_NAME = "weaver-knowledge"


def build_server(index: KnowledgeIndex) -> FastMCP:
    server = FastMCP(SERVER_NAME, log_level="WARNING")

    @server.tool()
    def query_knowledge_hub(query: str, collection: str | None = None, top_k: int = 5) -> str:
        """Search the knowledge base; the best chunks first, each with its document and section."""
        hits = index.query(query, collection=collection, top_k=top_k)
        return json.dumps({"query": query, "results": [hit.as_dict() for hit in hits]})

    @server.tool()
    def list_collections() -> str:
        """The collections of the knowledge base, with their document and chunk counts."""
        return json.dumps({"collections": index.collections()})

    @server.tool()
    def get_document_summary(doc_id: str) -> str:
        """A document's title, collection, section headings and opening text."""
        summary = index.summary(doc_id)
        if summary is None:
            return json.dumps({"error": f"no document {doc_id!r} in the knowledge base"})
        return json.dumps(summary)

    return server


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--index", type=Path, required=True, help="the index file (SQLite)")
    parser.add_argument("--sample", action="store_true", help="index the shipped notes if new")
    parser.add_argument(
        "--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp"
    )
    args = parser.parse_args(argv)
    index = KnowledgeIndex(args.index)
    if args.sample:
        index.ensure_sample()
    server = build_server(index)
    if args.http:
        server.settings.host, server.settings.port = "127.0.0.1", args.http
        server.run("streamable-http")
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
