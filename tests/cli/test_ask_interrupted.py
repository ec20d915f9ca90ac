"""``ask`` stopped mid-reply: Ctrl+C (or SIGTERM, SIGHUP) keeps the partial reply marked
cancelled, and a second ask meanwhile is refused; SIGKILL leaves the flushed partial reply in
the database, marked interrupted when the data folder reopens."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.runtime.turn_lock import conversation_turn
from agents.runtime.user_message import NewMessage, store_user_message
from storage.models import MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import isolated_env
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.held_reply import running_reply
from weaver_tui.core.services import Services

WAIT_S = 60


def _settings(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "k",
        "WEAVER_MODEL": "fake-model",
    }


def _start_ask(tmp_path: Path, fake_openai: FakeOpenAI) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "ask", "--profile", "researcher", "talk"],
        cwd=tmp_path,
        env=isolated_env(tmp_path, **_settings(fake_openai)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )


def _read_until(process: subprocess.Popen[bytes], needed: int) -> bytes:
    """Read stdout until ``needed`` bytes arrived (the reply is streaming), bounded in time."""
    assert process.stdout is not None
    data, deadline = b"", time.monotonic() + WAIT_S
    while len(data) < needed and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                break
            data += chunk
    assert len(data) >= needed, (data, process.poll())
    return data


def _only_reply(tmp_path: Path) -> MessageRecord:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        return store.active_leaf(conversation.id) or store.list_messages(conversation.id)[-1]


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_second_ask_meanwhile_is_refused_and_ctrl_c_term_or_hangup_keep_the_partial_reply(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    stop: str,
) -> None:
    """While one ``ask`` process is streaming, a second ask on its conversation is refused
    and writes nothing (the second runs in this process: the turn lock is the other
    process's); then the stop signal ends the first with 130, its partial reply kept and
    marked cancelled, and the tree sound (no user message below another)."""
    # Held after 30 words (200 bytes): still streaming however slowly the second ask starts
    # and until the signal comes.
    fake_openai.script(Reply(deltas=[f"word{i} " for i in range(2000)], holds=(30,)))
    process = _start_ask(tmp_path, fake_openai)
    try:
        _read_until(process, 60)
        conversation = _only_conversation(tmp_path)
        second = weaver("ask", "--conversation", conversation, "more", env=_settings(fake_openai))
        process.send_signal(getattr(signal, stop))
        _out, err = process.communicate(timeout=WAIT_S)
    finally:
        process.kill()
    assert second.returncode == 1
    assert "a reply is being written in conversation" in second.stderr
    assert process.returncode == 130, err
    assert b"conversation: " in err
    assert b"Traceback" not in err
    reply = _only_reply(tmp_path)
    assert reply.role == "assistant"
    assert reply.status is MessageStatus.CANCELLED
    assert reply.content.startswith("word0 word1 ")
    assert len(reply.content.split()) < 2000
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        records = store.list_messages(conversation)
        by_id = {r.id: r for r in records}
        for record in records:
            parent = by_id.get(record.parent_id or "")
            assert not (record.role == "user" and parent and parent.role == "user")
        assert [r.content for r in records if r.role == "user"] == ["talk"]


def test_sigkill_mid_stream_leaves_the_flushed_partial_reply(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(running_reply(sent_at_once=40))  # 270 bytes, then a word per release
    process = _start_ask(tmp_path, fake_openai)
    try:
        _read_until(process, 200)
        # Some of the text on screen is on disk (saved as a later word arrives).
        _wait_until_flushed(tmp_path, "word0 word1 ", fake_openai)
        process.kill()
        process.wait(timeout=WAIT_S)
    finally:
        process.kill()
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        reply = next(m for m in store.list_messages(conversation.id) if m.role == "assistant")
        assert reply.status is MessageStatus.STREAMING
        assert reply.content.startswith("word0 word1 ")
        store.mark_interrupted_replies()
        assert store.get_message(reply.id).status is MessageStatus.CANCELLED


def _wait_until_flushed(tmp_path: Path, start: str, fake_openai: FakeOpenAI) -> None:
    """Wait until the streaming reply's stored text begins with ``start``, letting one more
    word of the held reply go at each look (a streaming reply is saved as words arrive)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        fake_openai.release()
        with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
            (conversation,) = store.list_conversations()
            records = store.list_messages(conversation.id)
        if any(r.role == "assistant" and r.content.startswith(start) for r in records):
            return
        assert time.monotonic() < deadline, "the streaming reply was never flushed"
        time.sleep(0.05)


def _only_conversation(tmp_path: Path) -> str:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        return conversation.id


def test_an_ask_on_a_busy_conversation_is_refused_before_the_model_is_built(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Refused at once, in the same sentence as the turn gives: no model is built (nor a
    runtime) for a turn that cannot run, and nothing is written."""
    db = tmp_path / "data" / "weaver.db"
    db.parent.mkdir(parents=True)
    with SqliteConversationStore(db) as store:
        conversation = store_user_message(store, NewMessage(profile="researcher", text="hi"))
    conversation_id = conversation.conversation.id

    def no_model(services: Services) -> object:
        raise AssertionError("the model was built for a refused ask")

    monkeypatch.setattr(Services, "model", property(no_model))
    with conversation_turn(tmp_path / "data", conversation_id):  # as another process holds it
        refused = weaver(
            "ask", "--conversation", conversation_id, "more", env=_settings(fake_openai)
        )
    assert refused.returncode == 1
    assert "a reply is being written in conversation" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    with SqliteConversationStore(db) as store:
        assert [r.content for r in store.list_messages(conversation_id)] == ["hi"]
    assert not fake_openai.requests
