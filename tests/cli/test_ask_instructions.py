"""``ask --system TEXT``: instructions for the conversation, stored on it, added after the
profile's system prompt on this and later turns, exported, and cleared with ``--system ''``."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.instructions import HEADING, INSTRUCTIONS_MAX_CHARS
from storage.sqlite_store import SqliteConversationStore
from tests.cli.test_ask_options import _ask, data_dir
from tests.support.fake_openai import FakeOpenAI, Reply

__all__ = ["data_dir"]
pytestmark = pytest.mark.usefixtures("researcher")


@pytest.fixture
def remote(data_dir: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    monkeypatch.setenv("WEAVER_PROVIDER", "openai-compatible")
    monkeypatch.setenv("WEAVER_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("WEAVER_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("WEAVER_MODEL", "fake-model")
    return fake_openai


def system_sent(fake_openai: FakeOpenAI) -> str:
    first = fake_openai.chat_bodies[-1]["messages"][0]
    assert first["role"] == "system"
    return str(first["content"])


def test_instructions_go_with_every_turn_until_cleared(
    data_dir: Path, remote: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    remote.script(Reply("Bonjour."), Reply("Encore."), Reply("Hello."))
    code, _, err = _ask(capsys, "--profile", "researcher", "--system", "Answer in French.", "hi")
    assert code == 0, err
    conversation_id = err.strip().splitlines()[-1].removeprefix("conversation: ")
    assert system_sent(remote).endswith(f"{HEADING}\nAnswer in French.\n")

    code, _, err = _ask(capsys, "--conversation", conversation_id, "and again")
    assert code == 0, err
    assert "Answer in French." in system_sent(remote)
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        assert store.get_conversation(conversation_id).meta["instructions"] == "Answer in French."
        assert "> Answer in French." in store.export_markdown(conversation_id)

    code, _, err = _ask(capsys, "--conversation", conversation_id, "--system", "", "now?")
    assert code == 0, err
    assert HEADING not in system_sent(remote)


def test_instructions_over_the_limit_are_refused_before_anything_is_stored(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _ask(capsys, "--system", "x" * (INSTRUCTIONS_MAX_CHARS + 1), "hi")
    assert code == 2
    assert out == ""
    assert "instructions are at most" in err.lower()
    assert (
        not (data_dir / "weaver.db").exists()
        or not SqliteConversationStore(data_dir / "weaver.db").list_conversations()
    )
