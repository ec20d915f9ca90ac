"""``kb add`` on files that try to stall or exhaust it: a PDF that would keep the parser busy
for minutes, a compressed-stream bomb, a 500 MB file, symbolic link loops. Each is skipped with
its reason in one line; every other file of the run is indexed."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.profiles.paper_pilot.knowledge import index as index_module
from agents.profiles.paper_pilot.knowledge import pdf_text
from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from tests.support.hostile_pdfs import bomb_pdf, slow_pdf, tiny_pdf


def _good_files(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.md").write_text("# Notes\n\nQuantization shrinks weights.\n")
    (folder / "adapters.pdf").write_bytes(tiny_pdf("Low-rank adapters freeze the base weights."))


def test_a_pdf_that_keeps_the_parser_busy_is_stopped_and_the_rest_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "papers"
    _good_files(folder)
    slow = slow_pdf()
    (folder / "slow.pdf").write_bytes(slow)
    assert (folder / "slow.pdf").stat().st_size < 100_000
    # Only the slow PDF gets a short bound (it would take minutes): the good one keeps the
    # default, so a busy machine never makes it the one that is stopped.
    bounded = pdf_text.pdf_text_bounded

    def short_for_the_slow_one(data: bytes, seconds: float | None = None) -> tuple[str, int]:
        return bounded(data, 2.0 if data == slow else seconds)

    monkeypatch.setattr(index_module, "pdf_text_bounded", short_for_the_slow_one)

    with KnowledgeIndex(tmp_path / "index.sqlite") as index:
        report = index.add_folder(folder)
        assert report.added == 2
        assert [line for line in report.skipped if "slow.pdf" in line] == [
            f"{folder / 'slow.pdf'} (not a readable PDF: reading it took longer than 2 s)"
        ]
        assert index.query("low-rank adapters base weights")[0].doc_id == "papers/adapters"


def test_kb_add_skips_a_bomb_a_huge_file_and_link_loops_and_indexes_the_rest(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    folder = tmp_path / "papers"
    _good_files(folder)
    (folder / "bomb.pdf").write_bytes(bomb_pdf())
    with (folder / "huge.txt").open("wb") as huge:  # sparse: 500 MB that takes no disk
        huge.truncate(500 * 1024 * 1024)
    os.symlink("loop-b.md", folder / "loop-a.md")
    os.symlink("loop-a.md", folder / "loop-b.md")
    os.symlink(".", folder / "again")  # a folder that contains itself
    os.symlink("loop-c", tmp_path / "loop-c")

    done = weaver("kb", "add", str(folder))
    looped = weaver("kb", "add", str(tmp_path / "loop-c"))

    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.startswith("collection papers: 2 added"), done.stdout
    skipped = [line for line in done.stderr.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == 4, done.stderr
    assert any("bomb.pdf (not a readable PDF" in line for line in skipped)
    assert any("huge.txt (over 2 MB)" in line for line in skipped)
    assert sum("(not a regular file)" in line for line in skipped) == 2
    assert looped.returncode == 2
    assert looped.stderr.strip().splitlines() == [
        f"weaver-tui: {tmp_path / 'loop-c'} is not a folder; give the folder to index."
    ]
    listed = weaver("kb", "list")
    assert any(line.startswith("papers  2 documents") for line in listed.stdout.splitlines())
