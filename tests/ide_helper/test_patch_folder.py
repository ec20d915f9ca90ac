"""A patch is checked and written in the folder it was made in, whatever folder the caller
holds: a turn run with another project root than the conversation's (the app started with
``--project-root``) proposed a patch on one folder's file and the resumed turn wrote it into
the conversation's folder, a file the model never read.

Generated: a patch made in one of two checkouts holding the same file (or a link to one),
accepted by a caller holding any of them: only the folder it was made in changes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.patch_review.patches import make_patch
from agents.patch_review.review import find_pending_review, resume_value, settle
from agents.patch_review.rewind import APPLIED, accepted_on, patches_on, rewind
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished
from storage.sqlite_store import SqliteConversationStore
from tests.ide_helper.conftest import APP_PY
from tests.ide_helper.test_review_flow import EDIT_ARGS, collect
from tests.support.fake_openai import Reply, ToolCall

FOLDERS = ["one", "two", "link-to-one"]


@given(made_in=st.sampled_from(FOLDERS), held=st.sampled_from(FOLDERS))
@settings(max_examples=40, deadline=None)
def test_a_patch_is_written_only_where_it_was_made(made_in: str, held: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for name in FOLDERS[:2]:
            (base / name).mkdir()
            (base / name / "f.py").write_text("x = 1\n")
        os.symlink(base / "one", base / "link-to-one")
        patch = make_patch(base / made_in, "f.py", 1, 1, "x = 2")
        assert settle(base / held, patch, "accept").status == APPLIED
        real = os.path.realpath(base / made_in)
        for name in FOLDERS[:2]:
            changed = (base / name / "f.py").read_text() == "x = 2\n"
            assert changed == (os.path.realpath(base / name) == real)


def real_path(folder: Path) -> str:
    return os.path.realpath(folder)


async def test_a_turn_run_elsewhere_than_the_conversations_folder_patches_its_own_folder(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    stored = tmp_path / "stored"
    shutil.copytree(project, stored)
    launched = real_path(project)
    fake_openai.script(
        Reply(content="Proposing.", tool_calls=[ToolCall("propose_edit", EDIT_ARGS, id="c_e")]),
        Reply("Done."),
    )
    store = SqliteConversationStore(tmp_path / "weaver.db")
    try:
        conversation = store.create_conversation(
            "ide-helper", "r", meta={"project_root": str(stored)}
        )
        user = store.add_message(conversation.id, "user", "Say Hi", None)
        async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
            runtime = AgentRuntime(store, saver)
            await collect(
                runtime.run_turn(
                    conversation_id=conversation.id,
                    user_message_id=user.id,
                    model=openai_model(),
                    project_root=project,
                )
            )
            pending = find_pending_review(store, conversation.id)
            assert pending is not None
            events = await collect(
                runtime.resume_turn(
                    conversation_id=conversation.id,
                    record_id=pending.record_id,
                    value=resume_value("accept"),
                    model=openai_model(),
                )
            )
        assert (project / "src/app.py").read_text() != APP_PY  # where the model read it
        assert (stored / "src/app.py").read_text() == APP_PY
        finished = events[-1]
        assert isinstance(finished, RunFinished)
        path = store.path_to_root(finished.leaf_id)
        [patch] = patches_on(path, APPLIED, accepted_on(store, path))
        assert patch.root == launched
        assert not rewind(stored, store, patch, "revert").done
        assert rewind(project, store, patch, "revert").done
        assert (project / "src/app.py").read_text() == APP_PY
    finally:
        store.close()
