"""PDF documents in the knowledge base: their text is indexed and found like a note's; a
damaged PDF is skipped with the reason, and the rest of the folder is still indexed."""

from __future__ import annotations

from pathlib import Path

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from tests.support.hostile_pdfs import tiny_pdf


def test_a_pdf_is_indexed_and_found_and_a_damaged_one_is_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "adapters.pdf").write_bytes(tiny_pdf("Low-rank adapters freeze the base weights."))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf")
    (folder / "notes.md").write_text("# Notes\n\nQuantization shrinks weights.\n")
    with KnowledgeIndex(tmp_path / "index.sqlite") as index:
        report = index.add_folder(folder)
        assert report.added == 2
        assert any("broken.pdf (not a readable PDF" in line for line in report.skipped)
        hits = index.query("low-rank adapters base weights")
        assert hits
        assert hits[0].doc_id == "papers/adapters"
        assert "freeze the base weights" in hits[0].text
