"""Which records a turn sends: the window, the user's pins and omissions, and a summary that
stands in for everything above it (a pure function of the path)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from agents.context import context_records, older_records
from storage.models import MessageRecord, Role


def path_of(*specs: tuple[str, str, dict[str, Any]]) -> list[MessageRecord]:
    records: list[MessageRecord] = []
    parent: str | None = None
    for depth, (record_id, role, meta) in enumerate(specs):
        records.append(
            MessageRecord(
                record_id,
                "c",
                cast(Role, role),
                record_id,
                parent,
                depth,
                1,
                datetime.now(UTC),
                meta,
            )
        )
        parent = record_id
    return records


def ids(records: list[MessageRecord]) -> list[str]:
    return [r.id for r in records]


def test_the_window_with_pins_added_and_omissions_dropped() -> None:
    path = path_of(
        ("q1", "user", {"context": "pinned"}), ("a1", "assistant", {}),
        ("q2", "user", {}), ("a2", "assistant", {"context": "excluded"}),
        ("q3", "user", {}),
    )  # fmt: skip
    assert context_records(path, 3) == ("", [path[0], path[2], path[4]])
    assert ids(context_records(path, 20)[1]) == ["q1", "a1", "q2", "q3"]


def test_a_summary_stands_in_for_its_record_and_all_above_but_pins_stay() -> None:
    path = path_of(
        ("q1", "user", {"context": "pinned"}), ("a1", "assistant", {"summary": "S1"}),
        ("q2", "user", {}), ("a2", "assistant", {}),
    )  # fmt: skip
    summary, records = context_records(path, 20)
    assert summary == "S1"
    assert ids(records) == ["q1", "q2", "a2"]


def test_the_window_never_starts_with_a_tool_result_cut_from_its_call() -> None:
    path = path_of(
        ("q1", "user", {}),
        ("a1", "assistant", {"tool_calls": [{"id": "t", "name": "x", "args": {}}]}),
        ("t1", "tool", {"tool_call_id": "t"}), ("a2", "assistant", {}),
    )  # fmt: skip
    assert ids(context_records(path, 2)[1]) == ["a2"]


def test_summarising_keeps_the_latest_six() -> None:
    path = path_of(*[(f"m{n}", "user" if n % 2 == 0 else "assistant", {}) for n in range(10)])
    assert ids(older_records(path)) == ["m0", "m1", "m2", "m3"]
    assert older_records(path[:6]) == []
