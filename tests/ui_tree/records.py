"""Builders of conversation trees as plain ``MessageRecord``s, for the tree widget's tests."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.models import MessageRecord, Role


class RecordFactory:
    """Makes records the way the store does: depth from the parent, version among siblings."""

    def __init__(self, conversation_id: str = "c1") -> None:
        self.conversation_id = conversation_id
        self.records: list[MessageRecord] = []
        self._by_id: dict[str, MessageRecord] = {}
        self._children: dict[str | None, int] = {}
        self._clock = datetime(2026, 1, 1, tzinfo=UTC)

    def add(
        self, role: Role, content: str, parent: MessageRecord | None = None, **meta: Any
    ) -> MessageRecord:
        parent_id = parent.id if parent else None
        version = self._children.get(parent_id, 0) + 1
        self._children[parent_id] = version
        self._clock += timedelta(seconds=1)
        record = MessageRecord(
            id=f"m{len(self.records) + 1}",
            conversation_id=self.conversation_id,
            role=role,
            content=content,
            parent_id=parent_id,
            depth=parent.depth + 1 if parent else 0,
            version=version,
            created_at=self._clock,
            meta=meta,
        )
        self.records.append(record)
        self._by_id[record.id] = record
        return record


def branched_conversation() -> tuple[RecordFactory, dict[str, MessageRecord]]:
    """A small conversation with an edited question and a regenerated answer.

    ``u1 → a1 → u2 → {a2 (v1), a2b (v2, active) → u3 → a3}``, plus an edited first question
    ``u1b`` (v2 of the roots) with its own answer ``a1b``.
    """
    f = RecordFactory()
    r: dict[str, MessageRecord] = {}
    r["u1"] = f.add("user", "What is a fork in a conversation tree?")
    r["a1"] = f.add("assistant", "A fork is where two replies share a parent.", r["u1"])
    r["u2"] = f.add("user", "Show me an example\nwith two lines", r["a1"])
    r["a2"] = f.add("assistant", "Here is the first try.", r["u2"], status="cancelled")
    r["a2b"] = f.add("assistant", "Here is a second try, regenerated.", r["u2"])
    r["u3"] = f.add("user", "Thanks! And a third question?", r["a2b"])
    r["a3"] = f.add(
        "assistant", "", r["u3"], tool_calls=[{"id": "t1", "name": "search", "args": {"q": "x"}}]
    )
    r["t1"] = f.add("tool", "found 3 results", r["a3"], tool_call_id="t1", name="search")
    r["a4"] = f.add("assistant", "Based on the search, yes.", r["t1"])
    r["u1b"] = f.add("user", "What is a branch, really?")
    r["a1b"] = f.add("assistant", "A branch is a path from the root.", r["u1b"])
    return f, r


def big_conversation(
    path_length: int = 2000, total: int = 10_000, seed: int = 7
) -> tuple[list[MessageRecord], str]:
    """A tree of ``total`` records whose active path holds ``path_length`` of them.

    The rest hang off the path as side branches (regenerated replies, edited questions) of
    random length, starting at random points. Returns (records, active leaf id).
    """
    rng = random.Random(seed)
    f = RecordFactory("big")
    path: list[MessageRecord] = []
    parent: MessageRecord | None = None
    for i in range(path_length):
        role: Role = "user" if i % 2 == 0 else "assistant"
        parent = f.add(role, f"{role} message {i} on the main path", parent)
        path.append(parent)
    while len(f.records) < total:
        start = rng.randrange(0, path_length - 1)
        branch_parent: MessageRecord | None = path[start]
        for j in range(min(rng.randint(1, 40), total - len(f.records))):
            role = "assistant" if (start + 1 + j) % 2 else "user"
            branch_parent = f.add(role, f"side branch at {start}, step {j}", branch_parent)
    return f.records, path[-1].id
