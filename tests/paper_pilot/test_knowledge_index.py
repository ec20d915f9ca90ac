"""The knowledge index: chunks by section, ranks by BM25, re-reads only changed files, never
follows links or reads what is not a regular file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex, chunk_body


def _notes(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "otters.md").write_text(
        "# Otters\n\n## Diet\nOtters eat fish and crabs.\n\n## Habitat\nRivers and coasts.\n"
    )
    (folder / "beavers.txt").write_text("Beavers build dams from wood.\n")
    (folder / "ignored.bin").write_bytes(b"\x00\x01")
    return folder


def test_documents_are_chunked_by_section_and_ranked(tmp_path: Path) -> None:
    with KnowledgeIndex(tmp_path / "index.sqlite") as index:
        report = index.add_folder(_notes(tmp_path / "animals"))
        assert (report.added, report.updated, report.unchanged) == (2, 0, 0)
        hits = index.query("what do otters eat?")
        assert hits[0].doc_id == "animals/otters"
        assert hits[0].section == "Diet"
        assert hits[0].title == "Otters"
        assert hits[0].cite() == "animals/otters#Diet"
        assert index.collections() == [{"name": "animals", "documents": 2, "chunks": 3}]
        summary = index.summary("animals/otters")
        assert summary is not None
        assert summary["sections"] == ["Diet", "Habitat"]
        assert index.query("the of and") == []


def test_indexing_again_reads_only_what_changed_and_forgets_what_is_gone(tmp_path: Path) -> None:
    folder = _notes(tmp_path / "animals")
    with KnowledgeIndex(tmp_path / "index.sqlite") as index:
        index.add_folder(folder)
        (folder / "otters.md").write_text("# Otters\n\n## Diet\nOtters love sea urchins.\n")
        os.utime(folder / "otters.md", (1, 1))
        (folder / "beavers.txt").unlink()
        report = index.add_folder(folder)
        assert (report.added, report.updated, report.unchanged, report.removed) == (0, 1, 0, 1)
        assert index.query("urchins")[0].doc_id == "animals/otters"
        assert index.query("fish crabs") == []
        again = index.add_folder(folder)
        assert (again.updated, again.unchanged) == (0, 1)


def test_links_fifos_and_big_files_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import agents.profiles.paper_pilot.knowledge.index as module

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\nthe password is swordfish\n")
    folder = _notes(tmp_path / "animals")
    (folder / "linked").symlink_to(outside, target_is_directory=True)
    (folder / "link.md").symlink_to(outside / "secret.md")
    os.mkfifo(folder / "pipe.md")
    (folder / "big.md").write_text("x" * 200)
    monkeypatch.setattr(module, "MAX_FILE_BYTES", 100)
    with KnowledgeIndex(tmp_path / "index.sqlite") as index:
        report = index.add_folder(folder)
        assert index.query("swordfish password") == []
        assert report.added == 2
        assert any("pipe.md" in s for s in report.skipped)
        assert any("link.md" in s for s in report.skipped)
        assert any("big.md" in s for s in report.skipped)


def test_long_sections_are_cut_between_paragraphs() -> None:
    body = "\n\n".join(f"paragraph {n} " + "word " * 60 for n in range(6))
    chunks = chunk_body(body, limit=700)
    assert all(len(c) <= 700 for c in chunks)
    assert len(chunks) >= 3
    assert "".join(chunks).count("paragraph") == 6


def test_the_benchmark_runs_at_a_small_size(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_paper_pilot.py"
    spec = importlib.util.spec_from_file_location("bench_paper_pilot", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "docs/s" in out
    assert "p95" in out
    assert "outside the model" in out
