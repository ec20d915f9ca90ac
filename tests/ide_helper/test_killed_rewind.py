"""A process killed while it rewinds two files leaves both as they were: every new text is
written and flushed before any is put in place, so a kill at either file's write leaves no
file changed, no temporary file behind, and every record as it was (a real child process,
killed with SIGKILL at the first or the second flush)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import APPLIED
from storage.sqlite_store import SqliteConversationStore

CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from agents.patch_review.rewind import APPLIED, accepted_on, patches_on, rewind_all
    from storage.sqlite_store import SqliteConversationStore

    root, db, leaf, kill_at = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = SqliteConversationStore(Path(db))
    path = store.path_to_root(leaf)
    patches = patches_on(path, APPLIED, accepted_on(store, path))
    flushes = {"n": 0}
    real_fsync = os.fsync

    def fsync(fd):
        flushes["n"] += 1
        if flushes["n"] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        real_fsync(fd)

    os.fsync = fsync
    rewind_all(root, store, [(p, "revert") for p in reversed(patches)])
    """
)


def listing(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("kill_at", [1, 2])
def test_a_kill_while_rewinding_two_files_changes_neither(tmp_path: Path, kill_at: int) -> None:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    db = tmp_path / "weaver.db"
    with SqliteConversationStore(db) as store:
        conversation = store.create_conversation("ide-helper")
        parent = store.add_message(conversation.id, "user", "go", None).id
        records = []
        for name in ("a.py", "src/b.py"):
            edit = text_edit(f"{name} = 1\n", f"{name} = 2\n" * 2000)
            (root / name).write_text(f"{name} = 2\n" * 2000)
            meta = {"patch_id": f"p-{name}", "patch_path": name, "patch_status": APPLIED,
                    "patch_edit": edit}  # fmt: skip
            parent = store.add_message(conversation.id, "tool", "applied", parent, meta=meta).id
            store.accept_patch(parent, f"p-{name}", name, edit["base_sha256"], edit["new_sha256"])
            records.append(parent)
    before = listing(root)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), str(db), parent, str(kill_at)],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -9, done.stderr.decode()
    assert listing(root) == before
    with SqliteConversationStore(db) as store:
        assert [store.get_message(r).meta["patch_status"] for r in records] == [APPLIED] * 2
