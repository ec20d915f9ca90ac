"""Generated sequences of what a user does with patches, checked against a model of the folder.

Steps: propose an edit (any line range of a small file, CRLF or not, with or without a final
newline, or a new file), accept or reject it (as the review node settles it and the runtime
records it), edit a file by hand, undo and redo, fork below any message, and check out any
message (the app's rewind of the files with the tree). The model keeps each file's bytes and,
for each accepted patch, the bytes before and after it. After every step the folder holds
exactly the model's bytes: a patch is written only when accepted; an undo or redo writes only
over the bytes it expects (else nothing moves); a checkout's rewind is all or nothing.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from agents.errors import ToolError
from agents.patch_review.line_edit import split_lines
from agents.patch_review.patches import Patch, make_patch
from agents.patch_review.review import settle
from agents.patch_review.rewind import (
    APPLIED,
    REVERTED,
    Direction,
    PatchOnBranch,
    accepted_on,
    next_to_rewind,
    patches_to_rewind,
    rewind_all,
)
from storage.sqlite_store import SqliteConversationStore

FILES = ["a.txt", "src/b.txt", "new.txt"]
_texts = st.sampled_from(["one\ntwo\n", "one\r\ntwo\r\n", "one\ntwo", "", "\ufeffx\n"])
_content = st.sampled_from(["", "N", "N\nM", "one", "\r\n", "P\r\nQ\n"])


@dataclass
class Accepted:
    record_id: str
    path: str
    before: bytes | None
    after: bytes


@dataclass
class Model:
    files: dict[str, bytes | None] = field(default_factory=dict)
    accepted: dict[str, Accepted] = field(default_factory=dict)


class PatchSequences(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp())
        self.root = self.tmp / "project"
        self.root.mkdir()
        self.store = SqliteConversationStore(self.tmp / "weaver.db")
        self.model = Model()
        self.leaf = ""
        self.conversation = ""

    @initialize(a=_texts, b=_texts)
    def start(self, a: str, b: str) -> None:
        (self.root / "src").mkdir()
        for name, text in (("a.txt", a), ("src/b.txt", b)):
            (self.root / name).write_bytes(text.encode())
            self.model.files[name] = text.encode()
        self.model.files["new.txt"] = None
        conversation = self.store.create_conversation(
            "ide-helper", meta={"project_root": str(self.root)}
        )
        self.conversation = conversation.id
        self.leaf = self.store.add_message(conversation.id, "user", "start", None).id

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # -- proposing and reviewing ------------------------------------------------------------

    @rule(name=st.sampled_from(FILES), start=st.integers(0, 5), size=st.integers(-1, 2),
          content=_content, accept=st.booleans(), hand_edit_first=st.booleans())  # fmt: skip
    def propose_and_review(
        self, name: str, start: int, size: int, content: str, accept: bool, hand_edit_first: bool
    ) -> None:
        """Propose an edit of a range that fits (a new file: lines 1-0), maybe edit the file by
        hand while the review is open, then accept or reject it."""
        current = self.model.files[name]
        if current is None:
            first, last = 1, 0
        else:
            count = len(split_lines(current.decode()))
            first = start % (count + 1) + 1
            last = max(first - 1, min(first - 1 + size, count))
        try:
            patch = make_patch(self.root, name, first, last, content)
        except ToolError:
            return  # a no-op: refused, nothing written
        if hand_edit_first:
            self.edit_by_hand(name, "meanwhile\n")
        self.review(patch, accept, made_from=current)

    def review(self, patch: Patch, accept: bool, made_from: bytes | None) -> None:
        before = self.model.files[patch.path]
        outcome = settle(self.root, patch, "accept" if accept else "reject")
        meta: dict[str, Any] = {"patch_id": patch.id, "patch_path": patch.path,
                                "patch_status": outcome.status}  # fmt: skip
        applied = outcome.status == APPLIED
        if applied:
            meta["patch_edit"] = patch.edit
        record = self.store.add_message(self.conversation, "tool", "r", self.leaf, meta=meta)
        self.leaf = record.id
        self.store.set_active_leaf(self.conversation, record.id)
        digest = None if before is None else hashlib.sha256(before).hexdigest()
        fits = digest == patch.base_sha256 or before == patch.new_content.encode()
        assert applied == (accept and fits), outcome.message
        if applied:
            edit = patch.edit
            assert edit is not None
            self.store.accept_patch(
                record.id, patch.id, patch.path, edit["base_sha256"], edit["new_sha256"]
            )
            after = patch.new_content.encode()
            self.model.files[patch.path] = after
            self.model.accepted[record.id] = Accepted(record.id, patch.path, made_from, after)

    # -- outside the app ------------------------------------------------------------------------

    @rule(name=st.sampled_from(FILES), text=st.sampled_from(["by hand\n", "", None]))
    def edit_by_hand(self, name: str, text: str | None) -> None:
        target = self.root / name
        if text is None:
            if target.exists():
                target.unlink()
            self.model.files[name] = None
        else:
            target.write_bytes(text.encode())
            self.model.files[name] = text.encode()

    # -- undo, redo, fork, checkout ---------------------------------------------------------

    @rule(direction=st.sampled_from(["revert", "redo"]))
    def undo_or_redo(self, direction: Direction) -> None:
        patch = next_to_rewind(self.store, self.store.path_to_root(self.leaf), direction)
        if patch is not None:
            self.run([(patch, direction)])

    @rule(pick=st.integers(0, 60))
    def fork(self, pick: int) -> None:
        path = self.store.path_to_root(self.leaf)
        parent = path[pick % len(path)]
        record = self.store.add_message(self.conversation, "user", "fork", parent.id)
        self.leaf = record.id
        self.store.set_active_leaf(self.conversation, record.id)

    @rule(pick=st.integers(0, 200))
    def checkout(self, pick: int) -> None:
        records = self.store.list_messages(self.conversation)
        target = records[pick % len(records)]
        old_path = self.store.path_to_root(self.leaf)
        # the leaf a checkout shows: the target's own path, down its first children
        leaf = target
        while children := self.store.children(leaf.id, self.conversation):
            leaf = children[0]
        new_path = self.store.path_to_root(leaf.id)
        accepted = accepted_on(self.store, old_path, new_path)
        revert, redo = patches_to_rewind(old_path, new_path, target.id, accepted)
        self.leaf = leaf.id
        self.store.set_active_leaf(self.conversation, leaf.id)
        steps: list[tuple[PatchOnBranch, Direction]] = [(p, "revert") for p in revert]
        steps += [(p, "redo") for p in redo]
        if steps:
            self.run(steps)

    def run(self, steps: list[tuple[PatchOnBranch, Direction]]) -> None:
        """Rewind ``steps`` and move the model: all of them if each fits the file as the
        steps before leave it, else none."""
        files = dict(self.model.files)
        fits = True
        for patch, direction in steps:
            known = self.model.accepted[patch.record_id]
            want, expect = (known.before, known.after)
            if direction == "redo":
                want, expect = expect, want
            if files[known.path] not in (want, expect):
                fits = False  # a conflict: nothing moves
                break
            files[known.path] = want
        outcomes = rewind_all(self.root, self.store, steps)
        assert [o.done for o in outcomes] == [fits] * len(steps), [o.message for o in outcomes]
        if fits:
            self.model.files = files

    # -- the folder is the model -------------------------------------------------------------

    @invariant()
    def folder_is_the_model(self) -> None:
        for name, expected in self.model.files.items():
            target = self.root / name
            assert (target.read_bytes() if target.exists() else None) == expected, name
        leftovers = [p.name for p in self.root.rglob("*.tmp")]
        assert leftovers == []

    @invariant()
    def statuses_are_applied_or_reverted(self) -> None:
        for record_id in self.model.accepted:
            status = self.store.get_message(record_id).meta["patch_status"]
            assert status in (APPLIED, REVERTED)


PatchSequences.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
test_patch_sequences = PatchSequences.TestCase
