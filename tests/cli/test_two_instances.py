"""Two weaver-tui processes on one data folder: a second turn in a conversation that is being
answered is refused in one sentence and writes nothing; turns in different conversations run
side by side; nothing is lost and the file stays whole. (One test: both on one process.)"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

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


def test_a_busy_conversation_refuses_a_second_ask_and_another_is_answered_at_once(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    """While another process answers its conversation, this process asking in that
    conversation (while its reply is open, before its first chunk) is refused in one sentence
    and writes nothing, and this process answering a conversation of its own loses nothing of
    either. The other process's reply streams one chunk per step: a chunk every 50 ms while
    this process answers a whole turn, its last chunks only once that turn is done, so the two
    replies are surely written at once."""
    env = _env(fake_openai)
    held_back = 5
    fake_openai.script(Reply(deltas=SLOW.deltas, lockstep=True), SLOW)
    db = tmp_path / "data" / "weaver.db"
    other = _start(tmp_path, env, "--profile", "researcher", "question 1")
    stop_stepping = threading.Event()
    try:
        _wait_for(lambda: _streaming_below(db, "question 1"))  # its turn lock is held
        busy = _only_conversation(db)
        refused = weaver("ask", "--conversation", busy, "question 3", env=env)
        stepper = _step_every_50_ms(fake_openai, len(SLOW.deltas or []) - held_back, stop_stepping)
        _wait_for(lambda: _streaming_below(db, "question 1", with_text=True))
        here = weaver("ask", "--profile", "researcher", "question 2", env=env)
        stop_stepping.set()
        stepper.join()
        for _ in range(held_back + 10):  # the rest of its chunks, and the end of its stream
            fake_openai.step()
        other_out, other_err = other.communicate(timeout=CLI_TIMEOUT_S)
    finally:
        stop_stepping.set()
        other.kill()

    assert refused.returncode != 0
    assert "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "being written" in refused.stderr
    assert [other.returncode, here.returncode] == [0, 0], [other_err, here.stderr]
    assert other_out.split() == [f"piece{i}" for i in range(60)]
    with SqliteConversationStore(db) as store:
        conversations = store.list_conversations()
        assert len(conversations) == 2
        for conversation in conversations:
            records = store.list_messages(conversation.id)
            assert [r.role for r in records] == ["user", "assistant"]
            assert records[1].status is MessageStatus.COMPLETE
            assert records[1].content.strip().endswith("piece59")
        assert [r.content for r in store.list_messages(busy) if r.role == "user"] == ["question 1"]
        assert integrity(store) == "ok"


def _only_conversation(db: Path) -> str:
    with SqliteConversationStore(db) as store:
        (conversation,) = store.list_conversations()
        return conversation.id


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


def _streaming_below(db: Path, question: str, *, with_text: bool = False) -> bool:
    """Whether the reply to ``question`` is open (streaming), with some of its text on disk
    if ``with_text``."""
    with SqliteConversationStore(db) as store:
        for conversation in store.list_conversations():
            records = store.list_messages(conversation.id)
            asked = [r.id for r in records if r.content == question]
            if any(
                r.parent_id in asked
                and r.status is MessageStatus.STREAMING
                and (r.content or not with_text)
                for r in records
            ):
                return True
    return False
