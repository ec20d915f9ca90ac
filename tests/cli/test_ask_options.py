"""``ask`` options, run in-process on the offline model: --parent forks, --conversation
continues, a profile that does not match the conversation is refused in one line."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.models import MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply
from weaver_tui import launch

pytestmark = pytest.mark.usefixtures("researcher")


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in ("WEAVER_PROVIDER", "WEAVER_API_KEY", "WEAVER_BASE_URL", "WEAVER_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("WEAVER_PROVIDER", "offline")
    monkeypatch.chdir(tmp_path)
    root = logging.getLogger()
    before = list(root.handlers)
    yield tmp_path / "data"
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()


def _ask(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = launch.main(["ask", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_parent_forks_and_conversation_continues(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _ask(capsys, "--profile", "researcher", "What is BM25?")
    assert code == 0, err
    assert out.strip(), err
    conversation_id = err.strip().splitlines()[-1].removeprefix("conversation: ")
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        first_user = store.list_messages(conversation_id)[0]
        assert first_user.role == "user"
        assert first_user.content == "What is BM25?"

    code, _, err = _ask(capsys, "--conversation", conversation_id, "And dense vectors?")
    assert code == 0, err
    code, _, err = _ask(
        capsys, "--conversation", conversation_id, "--parent", first_user.id, "What is RRF?"
    )
    assert code == 0, err

    with SqliteConversationStore(data_dir / "weaver.db") as store:
        users = {m.content: m for m in store.list_messages(conversation_id) if m.role == "user"}
        assert set(users) == {"What is BM25?", "And dense vectors?", "What is RRF?"}
        follow_up, fork = users["And dense vectors?"], users["What is RRF?"]
        # forking at a question asks another one in its place: a sibling, never a child
        assert fork.parent_id == first_user.parent_id
        assert fork.version == first_user.version + 1
        assert follow_up.parent_id != first_user.id  # the continuation went below the answer
        leaf = store.active_leaf(conversation_id)
        assert leaf is not None
        assert store.path_to_root(leaf.id)[0].id == fork.id

    # forking at a reply continues below it
    reply = next(
        m
        for m in store_messages(data_dir, conversation_id)
        if m.role == "assistant" and not m.tool_calls
    )
    code, _, err = _ask(capsys, "--parent", reply.id, "What about SPLADE?")
    assert code == 0, err
    splade = next(m for m in store_messages(data_dir, conversation_id) if "SPLADE" in m.content)
    assert splade.parent_id == reply.id


def store_messages(data_dir: Path, conversation_id: str) -> list[MessageRecord]:
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        return store.list_messages(conversation_id)


def test_profile_that_does_not_match_the_conversation_is_refused(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _ask(capsys, "--profile", "researcher", "hello")
    conversation_id = err.strip().splitlines()[-1].removeprefix("conversation: ")

    code, out, err = _ask(capsys, "--conversation", conversation_id, "--profile", "mediator", "hi")

    assert code == 1
    assert out == ""
    assert err.strip().splitlines() == [
        f"weaver-tui: conversation {conversation_id} belongs to the researcher profile, not mediator"
    ]


def test_provider_failure_is_one_line_and_a_non_zero_exit(
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = "sk-cli-test-key-0123456789"
    monkeypatch.setenv("WEAVER_PROVIDER", "openai-compatible")
    monkeypatch.setenv("WEAVER_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("WEAVER_API_KEY", key)
    monkeypatch.setenv("WEAVER_MODEL", "fake-model")
    fake_openai.script(Reply.unauthorized())

    code, out, err = _ask(capsys, "--profile", "researcher", "hello")

    assert code == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("weaver-tui: ")
    assert "API key" in lines[0]
    assert key not in err
    assert "Traceback" not in err
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        reply = store.active_leaf(conversation.id)
        assert reply is not None
        assert reply.role == "assistant"
        assert reply.status is MessageStatus.ERROR
        assert conversation.id in lines[0]
    assert key not in (data_dir / "weaver.log").read_text(encoding="utf-8")


def test_project_root_is_stored_and_used_by_the_ide_helper(
    data_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.md").write_text("# Notes\nThe build uses ruff.\n", encoding="utf-8")

    code, out, err = _ask(
        capsys, "--profile", "ide-helper", "--project-root", str(project), "What does notes.md say?"
    )

    assert code == 0, err
    assert "→ read_file" in err
    assert "ruff" in out
    conversation_id = err.strip().splitlines()[-1].removeprefix("conversation: ")
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        conversation = store.get_conversation(conversation_id)
        assert conversation.meta["project_root"] == str(project.resolve())


def test_a_turn_paused_on_a_patch_review_says_how_to_decide(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = data_dir.parent / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("def load_config():\n    return {}\n")
    code, out, err = _ask(
        capsys,
        "--profile",
        "ide-helper",
        "--project-root",
        str(project),
        "rename `load_config` to `read_config` in src/app.py",
    )
    assert code == 0, err
    conversation_id = err.strip().splitlines()[-1].removeprefix("conversation: ")
    hint = next(line for line in err.splitlines() if line.startswith("The proposed patch waits"))
    assert f"weaver-tui --conversation {conversation_id}" in hint
    assert "F4" in hint
    assert "propose a change to `src/app.py`" in out
    assert (project / "src" / "app.py").read_text().startswith("def load_config")  # not applied

    code, _, err = _ask(capsys, "--profile", "ide-helper", "--project-root", str(project), "hi")
    assert code == 0
    assert "The proposed patch waits" not in err


def test_the_ide_helpers_prompt_comes_from_the_config_folder_when_there(
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``prompts/ide-helper.md`` beside the config file replaces the shipped prompt, and it is
    what the provider receives as the system message."""
    config_dir = data_dir.parent  # WEAVER_CONFIG is config.yaml in this folder
    (config_dir / "prompts").mkdir()
    (config_dir / "prompts" / "ide-helper.md").write_text("You answer in haiku only.")
    monkeypatch.setenv("WEAVER_PROVIDER", "openai-compatible")
    monkeypatch.setenv("WEAVER_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("WEAVER_API_KEY", "sk-test-0123456789")
    monkeypatch.setenv("WEAVER_MODEL", "fake-model")
    fake_openai.script(Reply("Code rests in folders"))

    code, out, err = _ask(capsys, "--profile", "ide-helper", "what is here?")

    assert code == 0, err
    assert "Code rests in folders" in out, err
    system = fake_openai.last_body["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith("You answer in haiku only.")


def test_the_closing_lines_give_the_turns_usage_with_what_the_server_reported(
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the last line (still ``conversation: ID``): the turn's tokens, the cached and
    reasoning ones and the cost, as the server reported them."""
    monkeypatch.setenv("WEAVER_PROVIDER", "openai-compatible")
    monkeypatch.setenv("WEAVER_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("WEAVER_API_KEY", "sk-test-0123456789")
    monkeypatch.setenv("WEAVER_MODEL", "fake-model")
    details = {
        "prompt_tokens_details": {"cached_tokens": 811},
        "completion_tokens_details": {"reasoning_tokens": 37},
        "cost": 0.0042,
    }
    fake_openai.script(Reply("Done.", usage=(1234, 56), usage_extra=details))

    code, _, err = _ask(capsys, "--profile", "researcher", "hello")

    assert code == 0, err
    *_, usage, closing = err.strip().splitlines()
    assert closing.startswith("conversation: ")
    for number in ("1234", "811", "56", "37", "0.0042"):
        assert number in usage, usage
