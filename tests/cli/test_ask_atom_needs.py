"""The offline atom-developer drafts only what a message asks for: Python source pasted with
"what does this do?" (or attached) is no log sample of anything the intent names, so the reply
says what the demo needs and no atom is drafted, validated or called valid."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.cli.test_ask_attach import Weaver

SOURCE = 'import os\n\n\ndef main():\n    print("hello")\n'


def test_python_source_with_an_unrelated_question_drafts_no_atom(
    weaver: Weaver, tmp_path: Path
) -> None:
    done = weaver(
        "ask", "--profile", "atom-developer", f"what does this do?\n```\n{SOURCE}```",
        env={"WEAVER_PROVIDER": "offline"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "sample" in done.stdout
    assert "```python" not in done.stdout
    assert "passed" not in done.stdout
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        (meta,) = db.execute(
            "SELECT meta FROM messages WHERE role = 'assistant' ORDER BY created_at DESC LIMIT 1"
        ).fetchone()
    assert "artifacts" not in meta
