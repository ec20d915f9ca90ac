"""``weaver-tui ask`` when the disk fills up while the reply is written: exit 1 with one
sentence, the question kept, the reply marked failed with what was written, the file whole."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.full_disk import LIMIT_CODE, integrity

BIG_PIECE = " ".join(f"term{i}" for i in range(40_000))


def test_ask_on_a_full_disk_says_so_in_one_sentence_and_keeps_the_question(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    subprocess_cli: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    tmp_path: Path,
) -> None:
    """The second run is a real process: it limits the size of every SQLite file it opens."""
    env = {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-cli-test-key-0123456789",
        "WEAVER_MODEL": "fake-model",
    }
    fake_openai.script(
        Reply("First answer."),
        Reply(deltas=["The second ", "answer begins. ", BIG_PIECE], token_delay=0.2),
    )
    first = weaver("ask", "--profile", "researcher", "first question", env=env)
    assert first.returncode == 0, first.stderr
    conversation_id = first.stderr.strip().splitlines()[-1].split(": ", 1)[1]

    full = subprocess_cli(
        "ask",
        "--conversation",
        conversation_id,
        "second question",
        env=env,
        code=LIMIT_CODE.replace("SPARE", "10"),
    )

    assert full.returncode == 1, full.stderr
    assert "Traceback" not in full.stderr
    errors = [line for line in full.stderr.splitlines() if "full" in line]
    assert len(errors) == 1, full.stderr
    assert "free some space" in errors[0]
    assert full.stdout.startswith("The second answer begins.")
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        records = store.list_messages(conversation_id)
        assert [r.content for r in records if r.role == "user"] == [
            "first question",
            "second question",
        ]
        reply = records[-1]
        assert reply.role == "assistant"
        assert reply.status is MessageStatus.ERROR
        # What was saved before the disk filled: the reply's text is saved at most every
        # 100 ms, so a loaded machine may have saved only the first piece.
        assert reply.content in ("The second ", "The second answer begins. ")
        assert integrity(store) == "ok"
