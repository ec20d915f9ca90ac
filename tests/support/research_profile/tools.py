"""The research test profile's tool: search the shipped notes."""

from __future__ import annotations

from langchain_core.tools import BaseTool, tool

from tests.support.research_profile.knowledge_base import shipped_knowledge_base


@tool
def search_knowledge_base(query: str, max_results: int = 3) -> str:
    """Search the research knowledge base (notes on agent architectures and papers).

    Use it before answering any question about methods, papers or techniques, with the key
    terms of the user's question as ``query``. Returns the best matching note sections, each
    with its note id and heading so you can cite it as [note#heading]. If nothing matches, say
    so instead of guessing.
    """
    hits = shipped_knowledge_base().search(query, limit=max(1, min(max_results, 10)))
    if not hits:
        return f"No notes match {query!r}."
    blocks = []
    for hit in hits:
        s = hit.section
        where = f"{s.note}#{s.heading}" if s.heading else s.note
        blocks.append(f"[{where}] {s.title} — {s.heading} (score {hit.score})\n{s.text}")
    return "\n\n".join(blocks)


def make_tools() -> list[BaseTool]:
    return [search_knowledge_base]
