"""``weaver-tui import`` of anything that is not an export ends in one sentence: a stream or a
folder whose JSON nests 100,000 deep, or whose meta line is not an object."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("layout", ["stream", "folder-meta", "folder-messages", "folder-list-meta"])
def test_a_hostile_import_is_one_sentence(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path, layout: str
) -> None:
    if layout == "stream":
        source = tmp_path / "export.jsonl"
        source.write_text(DEEP + "\n")
    else:
        source = tmp_path / "export"
        source.mkdir()
        head = '{"id": "c", "profile": "ide-helper", "created_at": "2026-01-01T00:00:00", '
        head += '"updated_at": "2026-01-01T00:00:00"}'
        meta = {"folder-meta": DEEP, "folder-list-meta": "[1, 2]"}.get(layout, head)
        (source / "meta.json").write_text(meta)
        lines = DEEP if layout == "folder-messages" else ""
        (source / "messages.jsonl").write_text(lines)
    result = weaver("import", str(source))
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
