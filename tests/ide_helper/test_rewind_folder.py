"""A patch is reverted and re-applied only in the folder it was accepted in.

Generated: a patch accepted in one of a few folders (two checkouts holding the same bytes, a
link to the first), recorded with its folder or (a record from before the folder was kept)
with only its conversation's project root; a rewind asked from any of them writes only when
it is the same real folder, and otherwise leaves every folder's bytes and the record as they
were, with a sentence naming the folder to use.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patch_review import PATCH_ROOT
from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import APPLIED, accepted_on, patches_on, rewind, rewind_all
from storage.sqlite_store import SqliteConversationStore
from tests.ide_helper.test_rewind import PATCHED, accepted_patch

BEFORE, AFTER = "x = 1\n", "x = 2\n"
FOLDERS = ["one", "two", "link-to-one"]


def real_path(folder: Path) -> str:
    return os.path.realpath(folder)


def folders(base: Path) -> dict[str, Path]:
    """Two checkouts with the same patched file, and a link to the first."""
    found = {}
    for name in FOLDERS[:2]:
        (base / name).mkdir()
        (base / name / "f.py").write_text(AFTER)
        found[name] = base / name
    os.symlink(base / "one", base / "link-to-one")
    found["link-to-one"] = base / "link-to-one"
    return found


@given(
    accepted_in=st.sampled_from(FOLDERS),
    kept_on_record=st.booleans(),
    asked_from=st.sampled_from(FOLDERS),
)
@settings(max_examples=60, deadline=None)
def test_a_rewind_writes_only_in_the_folder_of_the_acceptance(
    accepted_in: str, kept_on_record: bool, asked_from: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        roots = folders(base)
        with SqliteConversationStore(base / "weaver.db") as store:
            conversation = store.create_conversation(
                "ide-helper", meta={"project_root": str(roots[accepted_in])}
            )
            user = store.add_message(conversation.id, "user", "go", None)
            edit = text_edit(BEFORE, AFTER)
            meta: dict[str, Any] = {"patch_id": "p-1", "patch_path": "f.py",
                                    "patch_status": APPLIED, "patch_edit": edit}  # fmt: skip
            if kept_on_record:
                meta[PATCH_ROOT] = os.path.realpath(roots[accepted_in])
            tool = store.add_message(conversation.id, "tool", "Applied", user.id, meta=meta)
            store.accept_patch(tool.id, "p-1", "f.py", edit["base_sha256"], edit["new_sha256"])
            path = store.path_to_root(tool.id)
            [patch] = patches_on(path, APPLIED, accepted_on(store, path))
            same = os.path.realpath(roots[accepted_in]) == os.path.realpath(roots[asked_from])
            [outcome] = rewind_all(roots[asked_from], store, [(patch, "revert")])
            assert outcome.done == same
            written = {name: (root / "f.py").read_text() for name, root in roots.items()}
            if same:
                assert written[asked_from] == BEFORE
                assert store.get_message(tool.id).meta["patch_status"] == "reverted"
            else:
                assert set(written.values()) == {AFTER}
                assert store.get_message(tool.id).meta["patch_status"] == APPLIED
                assert str(roots[accepted_in]) in outcome.message or (
                    os.path.realpath(roots[accepted_in]) in outcome.message
                )


async def test_the_runtime_keeps_the_folder_and_another_checkout_is_refused(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    real = real_path(project)
    store, _leaf, patch = await accepted_patch(tmp_path, project, fake_openai, openai_model)
    try:
        assert patch.root == real
        copy = tmp_path / "second-checkout"
        shutil.copytree(project, copy)
        outcome = rewind(copy, store, patch, "revert")
        assert not outcome.done
        assert (copy / "src/app.py").read_text() == PATCHED
        assert rewind(project, store, patch, "revert").done
    finally:
        store.close()
