"""``ask`` with a slash command as the whole prompt: each command ``ask`` runs prints its
result (one JSON object with ``--json``), nothing is stored; a command that writes the
project's files runs only with ``--yes`` (else one sentence, exit 2, the files untouched); a
prompt that names no command is refused in one sentence (exit 2), and ``//`` sends it as text.
The commands that write files and the unknown names are generated, not listed."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.slash_commands import COMMANDS, commands_for
from storage.sqlite_store import SqliteConversationStore
from tests.support.applied_patch import ORIGINAL, PATCHED, seed_applied_patch

Weaver = Callable[..., subprocess.CompletedProcess[str]]
WRITERS = [c.name for c in commands_for("ask") if c.writes_files]


def _store(tmp_path: Path) -> SqliteConversationStore:
    (tmp_path / "data").mkdir(exist_ok=True)
    return SqliteConversationStore(tmp_path / "data" / "weaver.db")


def _seed(tmp_path: Path) -> tuple[str, Path]:
    """A conversation with an applied patch: (its id, the patched file)."""
    project = tmp_path / "project"
    with _store(tmp_path) as store:
        first_id, _tool_id = seed_applied_patch(store, project)
        conversation_id = store.get_message(first_id).conversation_id
    return conversation_id, project / "src" / "app.py"


def _message_count(tmp_path: Path) -> int:
    with _store(tmp_path) as store:
        return sum(len(store.list_messages(c.id)) for c in store.list_conversations())


def test_a_real_process_runs_help_refuses_an_unknown_command_and_undoes_with_yes(
    subprocess_cli: Weaver, tmp_path: Path
) -> None:
    listed = subprocess_cli("--provider", "offline", "ask", "/help")
    assert listed.returncode == 0, listed.stderr
    for command in commands_for("ask"):
        assert f"/{command.name}" in listed.stdout
    assert "/fork" not in listed.stdout  # the composer's, not ask's

    refused = subprocess_cli("--provider", "offline", "ask", "/etc/hosts is missing")
    assert refused.returncode == 2
    [sentence] = refused.stderr.strip().splitlines()
    assert "//" in sentence
    app_only = subprocess_cli("--provider", "offline", "ask", "/fork")
    assert app_only.returncode == 2
    assert "composer" in app_only.stderr  # it says where /fork runs

    conversation_id, source = _seed(tmp_path)
    before = _message_count(tmp_path)
    asked = subprocess_cli(
        "--provider", "offline", "ask", "--conversation", conversation_id, "/undo"
    )
    assert asked.returncode == 2
    assert "--yes" in asked.stderr
    assert len(asked.stderr.strip().splitlines()) == 1
    assert source.read_text() == PATCHED

    undone = subprocess_cli(
        "--provider",
        "offline",
        "ask",
        "--yes",
        "--json",
        "--conversation",
        conversation_id,
        "/undo",
    )
    assert undone.returncode == 0, undone.stderr
    result = json.loads(undone.stdout)
    assert (result["command"], result["done"], result["path"]) == ("undo", True, "src/app.py")
    assert source.read_text() == ORIGINAL
    redone = subprocess_cli(
        "--provider", "offline", "ask", "--yes", "--conversation", conversation_id, "/redo"
    )
    assert redone.returncode == 0, redone.stderr
    assert source.read_text() == PATCHED
    assert _message_count(tmp_path) == before  # a command is not a message


@pytest.mark.parametrize("name", WRITERS)
def test_every_command_that_writes_files_wants_yes(
    weaver: Weaver, tmp_path: Path, name: str
) -> None:
    conversation_id, source = _seed(tmp_path)
    if name == "redo":  # something to redo, so only --yes stands in the way
        weaver("--provider", "offline", "ask", "--yes", "--conversation", conversation_id, "/undo")
    was = source.read_text()
    done = weaver("--provider", "offline", "ask", "--conversation", conversation_id, f"/{name}")
    assert done.returncode == 2
    assert "--yes" in done.stderr
    assert source.read_text() == was


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(
        alphabet=st.characters(categories=["L", "N", "P", "S"], exclude_characters="/"),
        min_size=1,
        max_size=12,
    ).filter(lambda n: n not in {c.name for c in COMMANDS}),
    argument=st.sampled_from(["", " now", "\targument"]),
)
def test_a_prompt_naming_no_command_is_refused_and_nothing_stored(
    weaver: Weaver, tmp_path: Path, name: str, argument: str
) -> None:
    done = weaver("--provider", "offline", "ask", f"/{name}{argument}")
    assert done.returncode == 2
    [sentence] = done.stderr.strip().splitlines()
    assert "//" in sentence
    assert done.stdout == ""
    assert not (tmp_path / "data" / "weaver.db").exists() or _message_count(tmp_path) == 0


def test_the_escape_sends_the_text_after_the_first_slash(weaver: Weaver, tmp_path: Path) -> None:
    done = weaver("--provider", "offline", "--profile", "ide-helper", "ask", "//etc is a folder")
    assert done.returncode == 0, done.stderr
    with _store(tmp_path) as store:
        [conversation] = store.list_conversations()
        users = [r.content for r in store.list_messages(conversation.id) if r.role == "user"]
    assert users == ["/etc is a folder"]


def test_conversation_commands_export_instructions_regenerate_search(
    weaver: Weaver, tmp_path: Path
) -> None:
    first = weaver("--provider", "offline", "--profile", "ide-helper", "ask", "list the files")
    assert first.returncode == 0, first.stderr
    conversation_id = first.stderr.strip().splitlines()[-1].removeprefix("conversation: ")
    on = ("--provider", "offline", "ask", "--conversation", conversation_id)

    exported = weaver(*on, "/export")
    assert exported.returncode == 0, exported.stderr
    assert "list the files" in exported.stdout

    assert weaver(*on, "/instructions answer in French").returncode == 0
    shown = weaver(*on, "--json", "/instructions")
    assert json.loads(shown.stdout)["instructions"] == "answer in French"

    with _store(tmp_path) as store:
        [user] = [r for r in store.list_messages(conversation_id) if r.role == "user"]
        replies = len(store.children(user.id, conversation_id))
    again = weaver(*on, "/regenerate")
    assert again.returncode == 0, again.stderr
    with _store(tmp_path) as store:
        assert (
            len(store.children(user.id, conversation_id)) == replies + 1
        )  # a new version of the reply
        assert [r.role for r in store.list_messages(conversation_id)].count("user") == 1

    found = weaver("--provider", "offline", "ask", "--json", "/search list the files")
    assert found.returncode == 0, found.stderr
    [hit, *_] = json.loads(found.stdout)["matches"]
    assert hit["conversation_id"] == conversation_id

    needs = weaver("--provider", "offline", "ask", "/export")
    assert needs.returncode == 2
    assert "--conversation" in needs.stderr


def test_model_profile_and_a_profiles_own_command(weaver: Weaver) -> None:
    model = weaver("--provider", "offline", "ask", "--json", "/model")
    assert model.returncode == 0, model.stderr
    assert json.loads(model.stdout)["provider"] == "offline"
    assert weaver("--provider", "offline", "ask", "/model gpt-5").returncode == 2

    profile = weaver(
        "--provider", "offline", "--profile", "paper-pilot", "ask", "--json", "/profile"
    )
    assert json.loads(profile.stdout)["profile"] == "paper-pilot"

    kb = weaver("--provider", "offline", "--profile", "paper-pilot", "ask", "--json", "/kb")
    assert kb.returncode == 0, kb.stderr
    assert json.loads(kb.stdout)["command"] == "kb"
    assert "knowledge base" in json.loads(kb.stdout)["result"].casefold()
    other = weaver("--provider", "offline", "--profile", "ide-helper", "ask", "/kb")
    assert other.returncode == 2  # paper-pilot's own: not a command of another profile


def test_undo_waits_for_no_one_a_turn_being_written_is_not_raced(
    subprocess_cli: Weaver, tmp_path: Path
) -> None:
    """While another process answers in the conversation (it holds the turn lock), /undo is
    refused in one sentence and the file stays as it is."""
    from storage.turn_locks import FileTurnLocks

    conversation_id, source = _seed(tmp_path)
    with FileTurnLocks(tmp_path / "data").hold(conversation_id):
        done = subprocess_cli(
            "--provider", "offline", "ask", "--yes", "--conversation", conversation_id, "/undo"
        )
    assert done.returncode == 1
    [sentence] = done.stderr.strip().splitlines()
    assert conversation_id in sentence
    assert source.read_text() == PATCHED
