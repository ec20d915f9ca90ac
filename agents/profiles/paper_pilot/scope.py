"""Where a research turn searches: the knowledge server's collections the question asks for,
and the document summaries an exploratory question starts from.

The slot-filling model sees the server's collections and names those the question asks for
("in my physics notes"); the search then keeps to them, and a question that asks for none is
searched everywhere. An exploratory question gets an overview of the documents its searches
found (their summaries, from the server) beside the chunks themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

MAX_SUMMARIES = 3
"""The most documents summarised for one exploratory question."""


def chosen_collections(picked: Sequence[str], known: Sequence[str]) -> list[str]:
    """The collections the model picked that the server has (compared without case), in the
    server's order; a name it made up is dropped. With a single collection there is nothing
    to narrow: an empty list, as for a question that names none (search everywhere)."""
    if len(known) < 2:
        return []
    wanted = {name.strip().casefold() for name in picked}
    return [name for name in known if name.casefold() in wanted]


def named_collections(question: str, known: Sequence[str]) -> list[str]:
    """The collections ``question`` names as collections ("in my papers collection", "the
    collection papers"), in the server's order: searched alone whatever the router read."""
    if len(known) < 2:
        return []
    said = " ".join(re.findall(r"[\w-]+", question.casefold()))
    named = []
    for name in known:
        word = re.escape(name.casefold())
        pattern = rf"\b{word} (?:collection|notes)\b|\bcollections? (?:named |called )?{word}\b"
        if re.search(pattern, said):
            named.append(name)
    return named


def collections_line(known: Sequence[str]) -> str:
    """The line of the slot-filling input that lists the collections to choose from."""
    return f"Collections of the knowledge base: {', '.join(known)}" if len(known) > 1 else ""


def documents_to_summarise(chunks: Sequence[Mapping[str, Any]]) -> list[str]:
    """The first :data:`MAX_SUMMARIES` documents of the chunks found, in order, each once."""
    found = [str(c["doc_id"]) for c in chunks if c.get("doc_id")]
    return list(dict.fromkeys(found))[:MAX_SUMMARIES]


def summary_chunk(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A document summary as a source the answer can cite: its title, the opening it gives
    and the sections the document covers."""
    doc_id = str(summary.get("doc_id") or "document")
    sections = [str(s) for s in summary.get("sections") or [] if str(s).strip()]
    opening = " ".join(str(summary.get("summary") or summary.get("text") or "").split())
    text = opening + (f" Sections: {'; '.join(sections)}." if sections else "")
    return {
        "doc_id": doc_id,
        "title": str(summary.get("title") or doc_id),
        "section": "Summary",
        "text": text.strip(),
        "collection": str(summary.get("collection") or ""),
        "path": str(summary.get("path") or ""),
        "score": 0.0,
    }
