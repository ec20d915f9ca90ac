"""A project whose files hold patches accepted in a real store, and a child process that
reverts them all and is SIGKILLed at a chosen step of the rewind (its step hook)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import APPLIED
from storage.sqlite_store import SqliteConversationStore

CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from agents.patch_review import rewind_journal
    from agents.patch_review.rewind import APPLIED, accepted_on, patches_on, rewind_all
    from storage.sqlite_store import SqliteConversationStore

    root, db, leaf, kill_at = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = SqliteConversationStore(Path(db))
    path = store.path_to_root(leaf)
    patches = patches_on(path, APPLIED, accepted_on(store, path))
    seen = []

    def hook(step):
        seen.append(step)
        if len(seen) == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    rewind_journal.step_hook = hook
    outcomes = rewind_all(root, store, [(p, "revert") for p in reversed(patches)])
    assert all(o.done for o in outcomes), [o.message for o in outcomes]
    print(len(seen))
    """
)

STARTING = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from agents.patch_review.rewind_journal import finish_interrupted
    from storage.sqlite_store import SqliteConversationStore

    with SqliteConversationStore(Path(sys.argv[1])) as store:
        print(finish_interrupted(store))
    """
)


@dataclass(frozen=True)
class Change:
    """A file a patch changed (``before`` ``None``: the patch created it)."""

    name: str
    before: str | None
    after: str


def listing(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def setup(tmp: Path, files: list[Change]) -> tuple[Path, Path, str, list[str]]:
    """A project holding every change applied, and a store whose records accepted them."""
    root, db = tmp / "project", tmp / "data" / "weaver.db"
    root.mkdir(parents=True)
    with SqliteConversationStore(db) as store:
        conversation = store.create_conversation("ide-helper")
        leaf = store.add_message(conversation.id, "user", "go", None).id
        records: list[str] = []
        for change in files:
            edit = text_edit(change.before, change.after)
            target = root / change.name
            if change.before is None and "/" in change.name:
                edit["new_folders"] = [change.name.split("/")[0]]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(change.after.encode("utf-8"))
            meta = {"patch_id": f"p{len(records)}", "patch_path": change.name,
                    "patch_status": APPLIED, "patch_edit": edit}  # fmt: skip
            leaf = store.add_message(conversation.id, "tool", "applied", leaf, meta=meta).id
            store.accept_patch(
                leaf, f"p{len(records)}", change.name, edit["base_sha256"], edit["new_sha256"]
            )
            records.append(leaf)
    return root, db, leaf, records


def run_child(root: Path, db: Path, leaf: str, kill_at: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(root), str(db), leaf, str(kill_at)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def expected(files: list[Change], reverted: bool) -> dict[str, bytes]:
    shown: dict[str, bytes] = {}
    for change in files:
        text = change.before if reverted else change.after
        if text is not None:
            shown[change.name] = text.encode("utf-8")
    return shown


def statuses(db: Path, records: list[str]) -> set[object]:
    with SqliteConversationStore(db) as store:
        return {store.get_message(r).meta["patch_status"] for r in records}
