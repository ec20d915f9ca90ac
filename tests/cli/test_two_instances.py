"""Two weaver-tui processes on one data folder: a second turn in a conversation that is being
answered is refused in one sentence and writes nothing; turns in different conversations run
side by side; nothing is lost and the file stays whole."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import CLI_TIMEOUT_S, isolated_env
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.full_disk import integrity

SLOW = Reply(deltas=[f"piece{i} " for i in range(60)], token_delay=0.05)


def _env(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-cli-test-key-0123456789",
        "WEAVER_MODEL": "fake-model",
    }


def _start(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "ask", *args],
        cwd=tmp_path,
        env=isolated_env(tmp_path, **env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(condition: Callable[[], bool], bound_s: float = 60) -> None:
    deadline = time.monotonic() + bound_s
    while not condition():
        assert time.monotonic() < deadline, "the other process never got there"
        time.sleep(0.05)


def _streaming_below(db: Path, question: str) -> bool:
    with SqliteConversationStore(db) as store:
        for conversation in store.list_conversations():
            records = store.list_messages(conversation.id)
            asked = [r.id for r in records if r.content == question]
            if any(r.parent_id in asked and r.status is MessageStatus.STREAMING for r in records):
                return True
    return False


def test_a_second_process_asking_in_a_busy_conversation_is_refused_and_writes_nothing(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    env = _env(fake_openai)
    release = threading.Event()

    def held_until_released(_body: dict[str, Any]) -> Reply:
        release.wait(CLI_TIMEOUT_S)  # the reply is open and its turn lock held meanwhile
        return Reply(deltas=["the second ", "answer"])

    fake_openai.script(Reply("First answer."), held_until_released)
    first = weaver("ask", "--profile", "researcher", "first question", env=env)
    assert first.returncode == 0, first.stderr
    conversation_id = first.stderr.strip().splitlines()[-1].split(": ", 1)[1]
    db = tmp_path / "data" / "weaver.db"

    answering = _start(tmp_path, env, "--conversation", conversation_id, "second question")
    try:
        _wait_for(lambda: _streaming_below(db, "second question"))
        refused = weaver("ask", "--conversation", conversation_id, "third question", env=env)
        release.set()
        out, err = answering.communicate(timeout=CLI_TIMEOUT_S)
    finally:
        release.set()
        answering.kill()

    assert refused.returncode != 0
    assert "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "being written" in refused.stderr
    assert answering.returncode == 0, err
    assert out.strip() == "the second answer"
    with SqliteConversationStore(db) as store:
        records = store.list_messages(conversation_id)
        users = [r.content for r in records if r.role == "user"]
        assert users == ["first question", "second question"]
        replies = [r for r in records if r.role == "assistant"]
        assert all(r.status is MessageStatus.COMPLETE for r in replies)
        assert replies[-1].content == "the second answer"
        assert integrity(store) == "ok"


def test_two_processes_answering_different_conversations_at_once_lose_nothing(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    """The other process's reply streams one chunk per step: a chunk every 50 ms while this
    process answers a whole turn of its own, its last chunks only once that turn is done, so
    the two replies are surely written at once."""
    env = _env(fake_openai)
    held_back = 5
    fake_openai.script(Reply(deltas=SLOW.deltas, lockstep=True), SLOW)
    db = tmp_path / "data" / "weaver.db"
    other = _start(tmp_path, env, "--profile", "researcher", "question 1")
    stop_stepping = threading.Event()
    try:
        _wait_for(lambda: bool(fake_openai.chat_requests))  # its data folder is set up
        stepper = _step_every_50_ms(fake_openai, len(SLOW.deltas or []) - held_back, stop_stepping)
        _wait_for(lambda: _partly_written_below(db, "question 1"))
        here = weaver("ask", "--profile", "researcher", "question 2", env=env)
        stop_stepping.set()
        stepper.join()
        for _ in range(held_back + 10):  # the rest of its chunks, and the end of its stream
            fake_openai.step()
        _out, other_err = other.communicate(timeout=CLI_TIMEOUT_S)
    finally:
        stop_stepping.set()
        other.kill()

    assert [other.returncode, here.returncode] == [0, 0], [other_err, here.stderr]
    with SqliteConversationStore(db) as store:
        conversations = store.list_conversations()
        assert len(conversations) == 2
        for conversation in conversations:
            records = store.list_messages(conversation.id)
            assert [r.role for r in records] == ["user", "assistant"]
            assert records[1].status is MessageStatus.COMPLETE
            assert records[1].content.strip().endswith("piece59")
        assert integrity(store) == "ok"


def _step_every_50_ms(
    fake_openai: FakeOpenAI, steps: int, stop: threading.Event
) -> threading.Thread:
    def step() -> None:
        for _ in range(steps):
            if stop.wait(0.05):
                return
            fake_openai.step()

    stepper = threading.Thread(target=step, daemon=True)
    stepper.start()
    return stepper


def _partly_written_below(db: Path, question: str) -> bool:
    """Whether the reply to ``question`` is streaming with some of its text on disk."""
    with SqliteConversationStore(db) as store:
        for conversation in store.list_conversations():
            records = store.list_messages(conversation.id)
            asked = [r.id for r in records if r.content == question]
            if any(
                r.parent_id in asked and r.status is MessageStatus.STREAMING and r.content
                for r in records
            ):
                return True
    return False
