"""A conversation whose ide-helper patch was accepted and applied, as reviewing it leaves it:
the record, the store's row of what the user accepted, and the file on disk."""

from __future__ import annotations

from pathlib import Path

from agents.patch_review.patches import make_patch
from storage.store import ConversationStore

ORIGINAL = "def greet(name):\n    return 'Hello, ' + name\n"
PATCHED = "def greet(name):\n    return 'Hi, ' + name\n"


def seed_applied_patch(store: ConversationStore, project: Path) -> tuple[str, str]:
    """first question → reply → applied patch record → reply, with the file patched on disk
    (as accepting it in review leaves it): (first user id, patch record id)."""
    (project / "src").mkdir(parents=True)
    (project / "src/app.py").write_text(ORIGINAL)
    patch = make_patch(project, "src/app.py", 2, 2, "    return 'Hi, ' + name")
    (project / "src/app.py").write_text(patch.new_content)
    conversation = store.create_conversation(
        "ide-helper", "greet", meta={"project_root": str(project)}
    )
    cid = conversation.id
    first = store.add_message(cid, "user", "look at greet", None)
    reply = store.add_message(cid, "assistant", "It says Hello.", first.id)
    ask = store.add_message(cid, "user", "say Hi instead", reply.id)
    meta = {
        "tool_call_id": "c1",
        "name": "propose_edit",
        "patch_id": patch.id,
        "patch_path": patch.path,
        "patch_status": "applied",
        "patch_edit": patch.edit,
    }
    call = store.add_message(
        cid, "assistant", "", ask.id, meta={"tool_calls": [{"id": "c1", "name": "propose_edit"}]}
    )
    tool = store.add_message(cid, "tool", f"Applied patch {patch.id}", call.id, meta=meta)
    edit = patch.edit
    assert edit is not None
    store.accept_patch(tool.id, patch.id, patch.path, edit["base_sha256"], edit["new_sha256"])
    done = store.add_message(cid, "assistant", "Done: it says Hi.", tool.id)
    store.set_active_leaf(cid, done.id)
    return first.id, tool.id
