"""Going back to a message with the files: for any branch of patches over a few files and any
point on it, :func:`restore_files` leaves every file as it was at that point (the patches
below it reverted, those above it untouched) and marks exactly those reverted; a file changed
by hand since makes it write nothing and change no record."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.patch_review.file_edit import text_edit
from agents.patch_review.restore_point import patches_after, restore_files
from agents.patch_review.rewind import APPLIED, REVERTED
from storage.sqlite_store import SqliteConversationStore

FILES = ("a.txt", "src/b.py", "c.md")
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
EDITS = st.lists(st.tuples(st.integers(0, len(FILES) - 1), TEXT), min_size=1, max_size=6)


def build(
    tmp: Path, edits: list[tuple[int, str]]
) -> tuple[Path, SqliteConversationStore, list[str], list[dict[str, str]]]:
    """A branch: a user message, then one applied patch per edit (each followed by a reply);
    the record ids root first, and what the files held after each record."""
    root = tmp / "project"
    (root / "src").mkdir(parents=True)
    texts = {name: f"start {name}\n" for name in FILES}
    for name, text in texts.items():
        (root / name).write_text(text, newline="")
    store = SqliteConversationStore(tmp / "data" / "weaver.db")
    conversation = store.create_conversation("ide-helper")
    leaf = store.add_message(conversation.id, "user", "go", None).id
    ids, held = [leaf], [dict(texts)]
    for number, (index, new) in enumerate(edits):
        name = FILES[index]
        new = f"{new} v{number}"  # never the text it replaces
        edit = text_edit(texts[name], new)
        meta = {"patch_id": f"p{number}", "patch_path": name, "patch_status": APPLIED,
                "patch_edit": edit}  # fmt: skip
        leaf = store.add_message(conversation.id, "tool", "applied", leaf, meta=meta).id
        store.accept_patch(leaf, f"p{number}", name, edit["base_sha256"], edit["new_sha256"])
        texts[name] = new
        (root / name).write_text(new, newline="")
        ids.append(leaf)
        held.append(dict(texts))
        leaf = store.add_message(conversation.id, "assistant", "done", leaf).id
        ids.append(leaf)
        held.append(dict(texts))
    return root, store, ids, held


def on_disk(root: Path) -> dict[str, str]:
    return {name: (root / name).read_bytes().decode("utf-8") for name in FILES}


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(edits=EDITS, data=st.data())
def test_the_files_go_back_to_the_point_and_only_the_later_patches_are_reverted(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[int, str]], data: st.DataObject
) -> None:
    root, store, ids, held = build(tmp_path_factory.mktemp("point"), edits)
    with store:
        at = data.draw(st.integers(0, len(ids) - 1), label="point")
        later = {p.record_id for p in patches_after(store, ids[-1], ids[at])}
        outcomes = restore_files(root, store, ids[-1], ids[at])
        assert all(o.done for o in outcomes)
        assert on_disk(root) == held[at]
        for number, record_id in enumerate(ids):
            status = store.get_message(record_id).meta.get("patch_status")
            if status is not None:
                assert status == (REVERTED if number > at else APPLIED)
                assert (record_id in later) == (number > at)


@SETTINGS
@given(edits=EDITS, data=st.data(), hand=TEXT)
def test_a_file_changed_since_writes_nothing(
    tmp_path_factory: pytest.TempPathFactory,
    edits: list[tuple[int, str]],
    data: st.DataObject,
    hand: str,
) -> None:
    root, store, ids, _held = build(tmp_path_factory.mktemp("hand"), edits)
    with store:
        at = data.draw(st.integers(0, len(ids) - 2), label="point")
        later = patches_after(store, ids[-1], ids[at])
        if not later:
            return
        victim = data.draw(st.sampled_from(later), label="victim").path
        (root / victim).write_text(f"by hand {hand}", newline="")
        before = on_disk(root)
        outcomes = restore_files(root, store, ids[-1], ids[at])
        assert not any(o.done for o in outcomes)
        assert on_disk(root) == before
        assert {store.get_message(p.record_id).meta["patch_status"] for p in later} == {APPLIED}


def test_a_point_off_the_branch_concerns_no_patch(tmp_path: Path) -> None:
    root, store, ids, _held = build(tmp_path, [(0, "x"), (1, "y")])
    with store:
        other = store.add_message(store.get_message(ids[0]).conversation_id, "user", "b", None)
        assert patches_after(store, ids[-1], other.id) == []
        assert [p.patch_id for p in patches_after(store, ids[-1], ids[0])] == ["p1", "p0"]
        assert restore_files(root, store, ids[-1], other.id) == []
