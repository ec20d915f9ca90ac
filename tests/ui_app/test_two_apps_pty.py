"""Two real apps (and an ``ask``) on one data folder and one conversation.

Both windows open the same conversation. While one writes a reply, the other's message and an
``ask`` in that conversation are refused in one sentence and write nothing; the refused draft,
sent again once the reply is done, goes below that reply. A window killed mid-reply leaves its
reply streaming: the other window, sending next, marks it interrupted and shows it so, as does
the next start. Every user message is stored once, on one line of the tree, nothing is left
streaming and the file is whole. ``python -m weaver_tui`` runs on real ptys against the local
OpenAI-compatible server; every wait is on the SQLite file or on what a pty drew.
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.runtime.turn_lock import ConversationBusy, conversation_turn
from agents.runtime.user_message import NewMessage, store_user_message
from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import isolated_env
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.full_disk import integrity
from tests.support.held_reply import running_reply
from tests.ui_app.test_launch_typing_pty import BOUND_S, Terminal

QUESTIONS = ["seed question", "question A", "question B", "question C", "question D"]


def _env(tmp_path: Path, fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        **isolated_env(
            tmp_path,
            WEAVER_PROVIDER="openai-compatible",
            WEAVER_BASE_URL=fake_openai.base_url,
            WEAVER_API_KEY="sk-two-apps-key-0123456789",
            WEAVER_MODEL="fake-model",
        ),
        "TERM": "xterm-256color",
    }


def _seed(db: Path) -> str:
    """A researcher conversation with one finished exchange; its id."""
    db.parent.mkdir(parents=True, exist_ok=True)
    with SqliteConversationStore(db) as store:
        stored = store_user_message(store, NewMessage(profile="researcher", text=QUESTIONS[0]))
        store.add_message(stored.conversation.id, "assistant", "Seed answer.", stored.record.id)
        return stored.conversation.id


def _rows(db: Path) -> list[tuple[str, str, str | None, str, str]]:
    """(id, role, parent id, content, status) of every record, oldest first."""
    with sqlite3.connect(db) as connection:
        return list(
            connection.execute(
                "SELECT id, role, parent_id, content, status FROM messages ORDER BY rowid"
            )
        )


def _reply_to(db: Path, question: str) -> tuple[str, str] | None:
    """(content, status) of the reply below ``question``, once there is one."""
    rows = _rows(db)
    asked = {row[0] for row in rows if row[1] == "user" and row[3] == question}
    replies = [(row[3], row[4]) for row in rows if row[1] == "assistant" and row[2] in asked]
    return replies[-1] if replies else None


def _turn_free(tmp_path: Path, conversation_id: str) -> bool:
    """Whether no process holds the conversation's turn lock (taken and let go at once)."""
    try:
        with conversation_turn(tmp_path / "data", conversation_id):
            return True
    except ConversationBusy:
        return False


def _answered(db: Path, question: str) -> Callable[[], bool]:
    return lambda: _reply_to(db, question) == (f"Answer to {question}.", "complete")


def _until(condition: Callable[[], bool], *terminals: Terminal) -> None:
    """Wait for ``condition`` (up to :data:`BOUND_S`), reading what the apps draw meanwhile."""
    end = time.monotonic() + BOUND_S
    while not condition():
        assert time.monotonic() < end, "the apps never got there"
        for terminal in terminals:
            terminal.read(0.05)
        if not terminals:
            time.sleep(0.05)


def _model(release_a: threading.Event) -> Callable[[dict[str, Any]], Reply]:
    """The server's answer to each question: A waits for ``release_a`` (its reply is open and
    its turn lock held meanwhile), C is held mid-reply (a word per release) to be killed."""

    def answer(body: dict[str, Any]) -> Reply:
        asked = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
        if asked == "question A":
            release_a.wait(BOUND_S)
        if asked == "question C":
            return running_reply(words=3000)
        return Reply(f"Answer to {asked}.")

    return answer


def _saved_with(db: Path, question: str, word: str, fake_openai: FakeOpenAI) -> Callable[[], bool]:
    """Whether the reply to ``question`` is saved with ``word`` in it; each look lets one more
    word of the held reply go (a streaming reply is saved as words arrive)."""

    def look() -> bool:
        fake_openai.release()
        return word in (_reply_to(db, question) or ("", ""))[0]

    return look


def _app(tmp_path: Path, env: dict[str, str]) -> Terminal:
    terminal = Terminal(
        [sys.executable, "-m", "weaver_tui", "--profile", "researcher"], tmp_path, env
    )
    terminal.wait_for(b"Seed answer")
    return terminal


def _quit(*terminals: Terminal) -> None:
    """Ctrl+Q in every app still running, then wait for each (killed if it does not end)."""
    for terminal in terminals:
        if terminal.process.poll() is None:
            with contextlib.suppress(OSError):
                terminal.type(b"\x11")
    for terminal in dict.fromkeys(terminals):
        with contextlib.suppress(subprocess.TimeoutExpired):
            terminal.close()


def _drawn_since(terminal: Terminal, start: int, text: bytes) -> Callable[[], bool]:
    return lambda: text in terminal.screen[start:]


def test_two_apps_and_ask_on_one_conversation_take_turns_and_lose_nothing(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    db = tmp_path / "data" / "weaver.db"
    conversation_id = _seed(db)
    release_a = threading.Event()
    fake_openai.default = _model(release_a)
    env = _env(tmp_path, fake_openai)
    first, second = _app(tmp_path, env), _app(tmp_path, env)
    terminals = [first, second]
    try:
        first.type(b"question A\r")
        _until(lambda: _reply_to(db, "question A") == ("", "streaming"), *terminals)

        second.type(b"question B\r")  # the first window is answering: refused, kept
        _until(_drawn_since(second, 0, b"Another weaver-tui"), *terminals)
        asked = subprocess.run(
            [sys.executable, "-m", "weaver_tui", "ask", "--conversation", conversation_id,
             "question by ask"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=BOUND_S,
        )  # fmt: skip
        assert [row[3] for row in _rows(db) if row[1] == "user"] == QUESTIONS[:2]

        release_a.set()
        _until(_answered(db, "question A"), *terminals)
        _until(lambda: _turn_free(tmp_path, conversation_id), *terminals)  # A's turn ended
        second.type(b"\r")  # the kept draft, sent again
        _until(_answered(db, "question B"), *terminals)
        _until(lambda: _turn_free(tmp_path, conversation_id), *terminals)

        first.type(b"question C\r")
        _until(_saved_with(db, "question C", "word20", fake_openai), *terminals)
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=BOUND_S)
        assert _reply_to(db, "question C")[1] == "streaming"  # type: ignore[index]

        seen = len(second.screen)
        second.type(b"question D\r")
        _until(_answered(db, "question D"), second)
        _until(_drawn_since(second, seen, b"interrupted"), second)
        terminals[0] = next_start = _app(tmp_path, env)
        _until(_drawn_since(next_start, 0, b"interrupted"), next_start)
    finally:
        release_a.set()
        _quit(first, *terminals)

    assert [terminal.process.returncode for terminal in terminals] == [0, 0]
    assert asked.returncode != 0
    assert len(asked.stderr.strip().splitlines()) == 1, asked.stderr
    assert "being written" in asked.stderr
    for terminal in (first, second):
        assert b"Traceback" not in terminal.screen
    rows = _rows(db)
    users = [row for row in rows if row[1] == "user"]
    assert [row[3] for row in users] == QUESTIONS  # each once, none from the refused ask
    replies = {row[2]: row for row in rows if row[1] == "assistant"}
    assert [replies[user[0]][4] for user in users] == [
        "complete", "complete", "complete", "cancelled", "complete"
    ]  # fmt: skip
    for user, next_user in itertools.pairwise(users):
        assert next_user[2] == replies[user[0]][0], "a message went beside a reply, not below"
    with SqliteConversationStore(db) as store:
        assert store.get_message(replies[users[3][0]][0]).meta.get("interrupted") is True
        assert integrity(store) == "ok"
