"""Reading the user's message: intent, a log sample (a fenced block or a file under the project
root, never one a link leads out to, never a pipe), and the user's own code and spec."""

from __future__ import annotations

import os
from pathlib import Path

from agents.profiles.atom_developer.request import SAMPLE_LINES, read_request


def test_the_fenced_blocks_are_sample_code_and_spec_and_the_rest_is_the_intent() -> None:
    text = (
        "Fix my atom for error codes\n```log\nERROR code=500\n```\n"
        "```python\ndef extract_context(text, source_file):\n    return []\n```\n"
        "```yaml\npattern: '500'\n```\nplease"
    )
    request = read_request(text, None)
    assert request.intent == "Fix my atom for error codes please"
    assert request.sample == "ERROR code=500"
    assert request.sample_from == "message"
    assert request.code.startswith("def extract_context")
    assert request.spec == "pattern: '500'\n"


def test_a_named_file_under_the_root_is_the_sample_cut_to_its_first_lines(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    lines = [f"ERROR code={n}" for n in range(SAMPLE_LINES + 30)]
    (tmp_path / "logs" / "app.log").write_text("\n".join(lines), encoding="utf-8")
    request = read_request("extract the codes in logs/app.log", tmp_path)
    assert request.sample_from == "logs/app.log"
    assert request.sample.splitlines() == lines[:SAMPLE_LINES]


def test_a_file_outside_the_root_or_a_pipe_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "outside.log").write_text("ERROR code=1 secret\n", encoding="utf-8")
    (root / "link.log").symlink_to(tmp_path / "outside.log")
    os.mkfifo(root / "pipe.log")

    for name in ("../outside.log", "link.log", "pipe.log"):
        request = read_request(f"extract the codes in {name}", root)
        assert request.sample == "", name
        assert request.note, name
    assert "outside the project root" in read_request("codes in link.log", root).note
    assert "not a regular file" in read_request("codes in pipe.log", root).note
