"""Fixed conversations for snapshots: ids, times and branch choices given, so every run draws
the same screen. Written through the store's own import path (``import_tree``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from storage.models import Conversation, MessageRecord, Role

if TYPE_CHECKING:
    from storage.backend import AnyStore

EPOCH = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)
REMOTE = {"provider": "openai-compatible", "model": "fake-model"}


class SceneBuilder:
    """Collects records of one conversation, then imports them in one go."""

    def __init__(self, conversation_id: str, title: str, profile: str, minutes: int) -> None:
        self.when = EPOCH + timedelta(minutes=minutes)
        self.conversation = Conversation(
            conversation_id, title, profile, self.when, self.when, meta={}
        )
        self.records: list[MessageRecord] = []
        self.choices: dict[str, str] = {}

    def add(self, record_id: str, role: Role, content: str, parent: str | None, **meta: Any) -> str:
        depth = 0
        if parent is not None:
            depth = next(r.depth for r in self.records if r.id == parent) + 1
        version = 1 + sum(1 for r in self.records if r.parent_id == parent)
        created = self.when + timedelta(seconds=len(self.records))
        meta.setdefault("status", "complete")
        record = MessageRecord(
            record_id,
            self.conversation.id,
            role,
            content,
            parent,
            depth,
            version,
            created,
            meta,
        )
        self.records.append(record)
        return record_id

    def save(
        self,
        store: AnyStore,
        active_leaf: str,
        conversation_meta: dict[str, Any] | None = None,
    ) -> None:
        path: list[str] = []
        current: str | None = active_leaf
        by_id = {r.id: r for r in self.records}
        while current is not None:
            path.append(current)
            current = by_id[current].parent_id
        for child in path:
            self.choices[by_id[child].parent_id or ""] = child
        conversation = Conversation(
            self.conversation.id,
            self.conversation.title,
            self.conversation.profile,
            self.conversation.created_at,
            self.conversation.updated_at,
            meta={"active_leaf": active_leaf, **(conversation_meta or {})},
        )
        store.import_tree(conversation, self.records, self.choices)


def branched_conversation(store: AnyStore) -> None:
    """A question answered twice (v1, v2), an edited follow-up (v1, v2) on the second answer."""
    scene = SceneBuilder("conv-branch", "Reading files in Python", "researcher", 60)
    q = scene.add("m-q", "user", "How do I read a text file in Python?", None)
    scene.add(
        "m-a1",
        "assistant",
        "Open it with `open()` in a `with` block:\n\n```python\nwith open(path) as f:\n"
        "    text = f.read()\n```",
        q,
        **REMOTE,
    )
    a2 = scene.add(
        "m-a2",
        "assistant",
        "Use **pathlib**:\n\n```python\nfrom pathlib import Path\n\ntext = Path(path)"
        '.read_text(encoding="utf-8")\n```\n\nIt closes the file for you.',
        q,
        **REMOTE,
    )
    f1 = scene.add("m-f1", "user", "And write one?", a2)
    scene.add("m-r1", "assistant", "`Path(path).write_text(text)` writes it.", f1, **REMOTE)
    f2 = scene.add("m-f2", "user", "And write one, keeping Windows line endings?", a2)
    last = scene.add(
        "m-r2",
        "assistant",
        'Pass `newline=""` so Python does not translate them:\n\n'
        '- `Path(path).write_text(text, newline="")`\n- or `open(path, "w", newline="")`',
        f2,
        **REMOTE,
    )
    scene.save(store, last)


def cancelled_reply(store: AnyStore) -> None:
    """A reply the user stopped with Esc: the partial text, marked cancelled."""
    scene = SceneBuilder("conv-cancel", "A long story", "researcher", 90)
    q = scene.add("c-q", "user", "Tell me a long story about a lighthouse keeper.", None)
    last = scene.add(
        "c-a",
        "assistant",
        "Once upon a time, on a rock at the edge of the northern sea, there lived a "
        "lighthouse keeper called Ada. Every evening she climbed the",
        q,
        status="cancelled",
        **REMOTE,
    )
    scene.save(store, last)


def conversation_list(store: AnyStore) -> None:
    """Three conversations of different profiles and days."""
    for number, (title, profile) in enumerate(
        [
            ("Budget talk with Sam and Alex", "mediator"),
            ("Why does the parser drop comments?", "ide-helper"),
            ("Compare ReAct and ReWOO", "researcher"),
        ]
    ):
        scene = SceneBuilder(f"conv-list-{number}", title, profile, number * 1440)
        last = scene.add(f"l{number}-q", "user", title, None)
        scene.save(store, last)


def steered_conversation(store: AnyStore) -> None:
    """A conversation with its own instructions, an attached log, a pinned message, one left
    out and a summary standing in for the older turns."""
    scene = SceneBuilder("conv-steer", "Why did the build fail?", "researcher", 120)
    q1 = scene.add("s-q1", "user", "Our budget for the build farm is 300 a month.", None, context="pinned")  # fmt: skip
    a1 = scene.add("s-a1", "assistant", "Noted: 300 a month.", q1, summary="- user: budget 300/month")  # fmt: skip
    q2 = scene.add(
        "s-q2", "user", "Why did this fail?", a1,
        attachments=[{"name": "build.log", "size": 1834, "kind": "text", "text": "error: linker"}],
    )  # fmt: skip
    a2 = scene.add("s-a2", "assistant", "The linker could not find `libssl`.", q2, context="excluded")  # fmt: skip
    scene.save(store, a2, {"instructions": "Answer in French."})
