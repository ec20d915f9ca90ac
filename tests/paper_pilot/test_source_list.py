"""An answer's numbered sources hold each passage once: the same passage reached by two
searches, from two copies of a note, or as a document's summary and the passage it opens with,
is one source, whatever order the searches found them in and whichever numbers the answer
cites; a source names a file that can be opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.paper_pilot.graph import duplicate_alias, renumber_citations
from agents.profiles.paper_pilot.scope import named_collections, summary_chunk
from agents.profiles.paper_pilot.source_list import merge_sources, same_passage, source_location

PASSAGES = [
    "Quillfeather herons nest in reed beds above slow water and lay three eggs each spring, "
    "always on the side of the pond that faces the morning sun.",
    "LoRA trains two small low-rank matrices beside each frozen weight matrix, so that well "
    "under one percent of the parameters of the model are updated.",
    "DPO aligns a language model with human preferences without training a separate reward "
    "model, using pairs of a preferred and a rejected answer.",
]


def passage(n: int, doc: str, form: str) -> dict[str, Any]:
    text = PASSAGES[n]
    if form == "summary":
        return summary_chunk({"doc_id": doc, "title": doc, "summary": text[:400],
                              "sections": ["Nesting", "Eggs"]})  # fmt: skip
    if form == "spaced":
        text = "  " + text.replace(" ", "\n", 3)
    return {"doc_id": doc, "title": doc, "section": "Idea", "text": text,
            "collection": doc.split("/")[0], "path": f"/notes/{doc}.md", "score": 1.0}  # fmt: skip


reached = st.lists(
    st.tuples(st.integers(0, len(PASSAGES) - 1), st.sampled_from(["mine/a", "copy/a", "mine/b"]),
              st.sampled_from(["plain", "spaced", "summary"])),
    min_size=1, max_size=8,
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(groups=st.lists(reached, min_size=1, max_size=3))
def test_merged_searches_hold_each_passage_once(
    groups: list[list[tuple[int, str, str]]],
) -> None:
    found = [[passage(*item) for item in group] for group in groups]
    merged = merge_sources(*found)
    assert not any(same_passage(a, b) for i, a in enumerate(merged) for b in merged[i + 1 :])
    wanted = {n for group in groups for n, _, _ in group}
    assert {PASSAGES.index(next(p for p in PASSAGES if p[:60] in " ".join(c["text"].split())))
            for c in merged} == wanted  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(items=reached, cites=st.lists(st.integers(1, 8), min_size=1, max_size=10))
def test_citations_of_one_passage_share_one_number(
    items: list[tuple[int, str, str]], cites: list[int]
) -> None:
    chunks = [passage(*item) for item in items]  # duplicates left in, as a server might
    draft = " ".join(f"Claim {i} [{n}]." for i, n in enumerate(cites))
    _, cited = renumber_citations(draft, len(chunks), duplicate_alias(chunks))
    listed = [chunks[n - 1] for n in cited]
    assert not any(same_passage(a, b) for i, a in enumerate(listed) for b in listed[i + 1 :])
    assert all(n <= len(chunks) for n in cited)


def test_a_summary_and_its_passage_are_one_source() -> None:
    summary, body = passage(0, "mine/a", "summary"), passage(0, "mine/a", "plain")
    (merged,) = merge_sources([summary], [body])
    assert merged["section"] == "Idea"
    assert merged["text"] == body["text"] + " Sections: Nesting; Eggs."


def test_a_source_names_its_file_relative_to_where_weaver_runs(tmp_path: Path) -> None:
    note = {"doc_id": "mine/quillfeather", "path": str(tmp_path / "notes" / "quillfeather.md")}
    assert source_location(note, cwd=tmp_path) == "notes/quillfeather.md"
    assert source_location({"doc_id": "x", "path": "https://example.org/a"}) == "https://example.org/a"  # fmt: skip
    assert source_location({"doc_id": "mine/quillfeather", "path": ""}) == "mine/quillfeather"


@settings(max_examples=100, deadline=None)
@given(
    name=st.sampled_from(["papers", "agents", "ml", "my-notes"]),
    shape=st.sampled_from(["In my {} collection, how does it work?",
                           "from the collection {}: what is LoRA?",
                           "Search the collection called {} for DPO",
                           "what do my {} notes say about RLHF?"]),
    case=st.booleans(),
)  # fmt: skip
def test_a_collection_named_as_one_is_searched_alone(name: str, shape: str, case: bool) -> None:
    known = ["agents", "ml", "my-notes", "papers"]
    question = shape.format(name.upper() if case else name)
    assert named_collections(question, known) == [name]
    assert named_collections(question.replace(name if not case else name.upper(), "other"), known) == []  # fmt: skip
    assert named_collections(question, [name]) == []  # one collection: nothing to narrow
