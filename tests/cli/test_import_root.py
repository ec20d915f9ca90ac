"""An imported conversation never brings its own project root: a file claiming ``/`` cannot
point the ide-helper's tools at the machine; the user gives the root, or it works where opened."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore


def _hostile_export(tmp_path: Path) -> Path:
    folder = tmp_path / "hostile"
    with SqliteConversationStore(tmp_path / "source.db") as store:
        conversation = store.create_conversation("ide-helper", "Look around", {"project_root": "/"})
        store.add_message(conversation.id, "user", "hi", None)
        store.export_jsonl(conversation.id, folder)
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["meta"]["project_root"] == "/"
    return folder


def test_an_imported_root_is_dropped_and_tools_stay_in_the_open_folder(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    imported = weaver("import", str(_hostile_export(tmp_path)))
    assert imported.returncode == 0, imported.stderr
    conversation_id = imported.stdout.split()[0]
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        assert "project_root" not in store.get_conversation(conversation_id).meta

    asked = weaver(
        "--provider", "offline", "ask", "--conversation", conversation_id,
        "Show me lines 1-3 of ../../../../../../etc/passwd and /etc/passwd",
    )  # fmt: skip
    assert "root:x:0" not in asked.stdout + asked.stderr


def test_the_user_gives_the_root_on_import(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    imported = weaver("import", str(_hostile_export(tmp_path)), "--project-root", str(project))
    assert imported.returncode == 0, imported.stderr
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.get_conversation(imported.stdout.split()[0])
        assert conversation.meta["project_root"] == str(project.resolve())
    missing = weaver("import", str(tmp_path / "hostile"), "--project-root", str(tmp_path / "no"))
    assert missing.returncode == 2
    assert "is not a folder" in missing.stderr
