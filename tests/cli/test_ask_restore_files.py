"""``ask --edit`` past an applied patch: with ``--restore-files`` the patch is reverted (the
file really goes back) before the new version is answered; without it the file stays and
stderr says how to take it back; a file changed since refuses the command before anything
is sent or written."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore
from tests.support.applied_patch import ORIGINAL, PATCHED, seed_applied_patch

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def seeded(tmp_path: Path) -> tuple[Path, Path, str, str]:
    """(project, database, the user message before the patch, the patch's record)."""
    project, db = tmp_path / "project", tmp_path / "data" / "weaver.db"
    with SqliteConversationStore(db) as store:
        _first, tool_id = seed_applied_patch(store, project)
        call = store.get_message(store.get_message(tool_id).parent_id or "")
        return project, db, call.parent_id or "", tool_id


def state(db: Path, ask_id: str, tool_id: str) -> tuple[object, int]:
    """The patch's status and how many versions the message has."""
    with SqliteConversationStore(db) as store:
        status = store.get_message(tool_id).meta["patch_status"]
        return status, len(store.siblings(ask_id))


def edit(weaver: Weaver, ask_id: str, *more: str) -> subprocess.CompletedProcess[str]:
    return weaver("--provider", "offline", "ask", "--quiet", "--edit", ask_id, "say Hey", *more)


def test_restore_files_reverts_the_patch_then_answers(weaver: Weaver, tmp_path: Path) -> None:
    project, db, ask_id, tool_id = seeded(tmp_path)
    done = edit(weaver, ask_id, "--restore-files")
    assert done.returncode == 0, done.stderr
    assert (project / "src/app.py").read_text() == ORIGINAL
    assert state(db, ask_id, tool_id) == ("reverted", 2)


def test_without_it_the_file_stays_and_stderr_says_so(weaver: Weaver, tmp_path: Path) -> None:
    project, db, ask_id, tool_id = seeded(tmp_path)
    done = edit(weaver, ask_id)
    assert done.returncode == 0, done.stderr
    assert "--restore-files" in done.stderr
    assert (project / "src/app.py").read_text() == PATCHED
    assert state(db, ask_id, tool_id) == ("applied", 2)


def test_a_file_changed_since_refuses_before_anything_is_sent(
    weaver: Weaver, tmp_path: Path
) -> None:
    project, db, ask_id, tool_id = seeded(tmp_path)
    (project / "src/app.py").write_text("by hand\n")
    done = edit(weaver, ask_id, "--restore-files")
    assert done.returncode != 0
    assert "src/app.py" in done.stderr
    assert "Traceback" not in done.stderr
    assert (project / "src/app.py").read_text() == "by hand\n"
    assert state(db, ask_id, tool_id) == ("applied", 1)


def test_regenerate_with_restore_files_reverts_the_patch(weaver: Weaver, tmp_path: Path) -> None:
    project, db, ask_id, tool_id = seeded(tmp_path)
    with SqliteConversationStore(db) as store:
        conversation_id = store.get_message(ask_id).conversation_id
    on = ("--provider", "offline", "ask", "--quiet", "--conversation", conversation_id)
    done = weaver(*on, "--restore-files", "/regenerate")
    assert done.returncode == 0, done.stderr
    assert (project / "src/app.py").read_text() == ORIGINAL
    with SqliteConversationStore(db) as store:
        assert store.get_message(tool_id).meta["patch_status"] == "reverted"
        assert len(store.children(ask_id, conversation_id)) == 2
