"""PDF documents in the knowledge base: their text is indexed and found like a note's; a
damaged PDF is skipped with the reason, and the rest of the folder is still indexed."""

from __future__ import annotations

from pathlib import Path

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF holding ``text`` in Helvetica (written by hand: no PDF writer needed)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return out


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
