"""A paused review belongs to the conversation that paused: a branch copied into a new
conversation carries the record, not the pause. The copy offers no review and a resume aimed
at it is refused with a sentence (it continued the original's turn from the copy, patched
the file, and left the original's record waiting for ever); the original still decides.

Generated: trees of paused and settled records copied at any point; a pause is offered only
in the conversation whose thread it is.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patch_review.review import find_pending_review
from agents.pending_interrupt import paused_here
from agents.runtime.events import RunError
from storage.branch_copy import branch_to_conversation
from storage.sqlite_store import SqliteConversationStore
from tests.ide_helper.conftest import APP_PY
from tests.ide_helper.test_review_flow import pause_on_a_patch, resume_after_restart
from tests.support.fake_openai import Reply


async def test_a_copied_pause_is_not_offered_nor_resumed_and_the_original_still_is(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    conversation_id, record_id = await pause_on_a_patch(
        tmp_path, project, fake_openai, openai_model()
    )
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        leaf = store.active_leaf(conversation_id)
        assert leaf is not None
        copy = branch_to_conversation(store, leaf.id)
        assert find_pending_review(store, copy.id) is None
        copied = store.active_leaf(copy.id)
        assert copied is not None
    events, store = await resume_after_restart(
        tmp_path, copy.id, copied.id, "accept", openai_model()
    )
    store.close()
    assert [type(e) for e in events] == [RunError]
    assert (project / "src/app.py").read_text() == APP_PY

    fake_openai.script(Reply("Done."))
    events, store = await resume_after_restart(
        tmp_path, conversation_id, record_id, "accept", openai_model()
    )
    try:
        assert not any(isinstance(e, RunError) for e in events)
        assert (project / "src/app.py").read_text() != APP_PY
        statuses = [r.meta.get("patch_status") for r in store.list_messages(conversation_id)]
        assert "applied" in statuses
        assert "pending" not in statuses
    finally:
        store.close()


_tree = st.lists(
    st.tuples(st.integers(0, 30), st.sampled_from(["user", "assistant", "paused"])),
    min_size=1,
    max_size=10,
)


@given(tree=_tree, copy_at=st.integers(0, 30))
@settings(max_examples=60, deadline=None)
def test_a_pause_counts_only_in_its_own_conversation(
    tree: list[tuple[int, str]], copy_at: int
) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        SqliteConversationStore(Path(folder) / "weaver.db") as store,
    ):
        conversation = store.create_conversation("ide-helper")
        ids = [store.add_message(conversation.id, "user", "go", None).id]
        for parent, kind in tree:
            role: Literal["user", "assistant"] = "user" if kind == "user" else "assistant"
            meta: dict[str, Any] = {}
            if kind == "paused":
                meta["pending_interrupt"] = {
                    "thread_id": f"{conversation.id}:{ids[0]}",
                    "user_message_id": ids[0],
                    "profile": "ide-helper",
                    "values": [],
                }
            record = store.add_message(
                conversation.id, role, "x", ids[parent % len(ids)], meta=meta
            )
            ids.append(record.id)
        copy = branch_to_conversation(store, ids[copy_at % len(ids)])
        for record in store.list_messages(conversation.id):
            assert (paused_here(record) is not None) == ("pending_interrupt" in record.meta)
        for record in store.list_messages(copy.id):
            assert paused_here(record) is None
