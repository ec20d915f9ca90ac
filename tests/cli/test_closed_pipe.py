"""A verb whose output is cut by a closed pipe (``weaver-tui conversations | head -1``) ends
quietly: no traceback, no "Exception ignored" line, the shell's status for a closed pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import CLI_TIMEOUT_S, isolated_env


def _seed(tmp_path: Path) -> str:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.create_conversation("mediator", "Budget talk")
        store.add_message(conversation.id, "user", "hello\n" * 50, None)
        return conversation.id


def _run_into_closed_pipe(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the command with stdout on a pipe whose reader has already gone (as ``head`` does
    once it has its line): every write to it fails."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "weaver_tui", *args],
            cwd=tmp_path,
            env=isolated_env(tmp_path),
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=CLI_TIMEOUT_S,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "verb",
    [
        ("conversations",),
        ("export", "{id}", "--format", "md"),
        ("export", "{id}", "--format", "jsonl"),
        ("kb", "list"),
        ("--provider", "offline", "ask", "hello there"),
    ],
    ids=lambda verb: " ".join(verb),
)
def test_a_closed_pipe_ends_the_verb_quietly(tmp_path: Path, verb: tuple[str, ...]) -> None:
    conversation_id = _seed(tmp_path)
    result = _run_into_closed_pipe(tmp_path, *(a.format(id=conversation_id) for a in verb))
    assert "Traceback" not in result.stderr
    assert "Exception ignored" not in result.stderr
    assert "BrokenPipe" not in result.stderr
    assert result.returncode == 141
