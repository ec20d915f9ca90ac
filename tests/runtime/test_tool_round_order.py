"""A tool round's results are stored in the order the model made the calls, whatever order
the calls finish in (they run at once), and each is shown the moment it finishes.

Driven through the runtime's event mapper with a real SQLite store: the model's reply with its
calls, then each call's finish in a generated order (from the tool node's custom stream, or
only from the tools node's update), then the update."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, ToolMessage

from agents.graph.tool_node import TOOL_EVENT_KEY
from agents.runtime.event_mapper import TurnEventMapper
from agents.runtime.events import RecordSaved, RunEvent, ToolFinished
from agents.runtime.recorder import TurnRecorder
from storage.sqlite_store import SqliteConversationStore


def finished(call_id: str) -> tuple[str, dict[str, object]]:
    return "custom", {TOOL_EVENT_KEY: "finished", "call_id": call_id, "name": "look",
                      "output": f"out {call_id}", "duration_ms": 1.0}  # fmt: skip


def run_round(
    folder: Path, calls: int, order: list[int], via_custom: list[bool], stop_after: int | None
) -> tuple[list[str], list[str], list[RunEvent]]:
    """(tool call ids as stored, the order shown, every event) of one round whose call
    ``order[k]`` finishes k-th; ``stop_after``: the round ends after that many finishes
    (no update: the turn was cut short) and the held results are flushed."""
    store = SqliteConversationStore(folder / "weaver.db")
    try:
        conversation = store.create_conversation("ide-helper", "order")
        user = store.add_message(conversation.id, "user", "look at all", None)
        mapper = TurnEventMapper(TurnRecorder(store, conversation.id, user.id, {}))
        ids = [f"call_{n}" for n in range(calls)]
        reply = AIMessage(
            content="",
            id="reply-1",
            tool_calls=[{"id": i, "name": "look", "args": {"n": n}} for n, i in enumerate(ids)],
        )
        events: list[RunEvent] = list(mapper.handle("updates", {"agent": {"messages": [reply]}}))
        done = order if stop_after is None else order[:stop_after]
        for n in done:
            if via_custom[n]:
                events += mapper.handle(*finished(ids[n]))
        if stop_after is None:  # the tools node's update: every result, in call order
            results = [
                ToolMessage(f"out {i}", tool_call_id=i, name="look", id=f"t{i}") for i in ids
            ]
            events += mapper.handle("updates", {"tools": {"messages": results}})
        events += mapper.flush_tool_results()
        path = store.path_to_root(mapper.recorder.last_id)
        stored = [str(r.meta["tool_call_id"]) for r in path if r.role == "tool"]
        shown = [e.call_id for e in events if isinstance(e, ToolFinished)]
        return stored, shown, events
    finally:
        store.close()


@st.composite
def rounds(draw: st.DrawFn) -> tuple[int, list[int], list[bool], int | None]:
    calls = draw(st.integers(1, 5))
    order = draw(st.permutations(range(calls)))
    via_custom = draw(st.lists(st.booleans(), min_size=calls, max_size=calls))
    stop_after = draw(st.one_of(st.none(), st.integers(0, calls)))
    return calls, list(order), via_custom, stop_after


@settings(max_examples=150, deadline=None)
@given(case=rounds())
def test_results_are_stored_in_call_order_and_shown_as_they_finish(
    case: tuple[int, list[int], list[bool], int | None],
) -> None:
    import tempfile

    calls, order, via_custom, stop_after = case
    with tempfile.TemporaryDirectory() as folder:
        stored, shown, events = run_round(Path(folder), calls, order, via_custom, stop_after)
    ids = [f"call_{n}" for n in range(calls)]
    finished_ids = (
        ids if stop_after is None else [ids[n] for n in order[:stop_after] if via_custom[n]]
    )
    # stored: exactly the finished calls, each once, in the order the model made them
    assert stored == [i for i in ids if i in finished_ids]
    # shown: a call's finish is shown when it arrives (custom stream), never twice
    assert len(shown) == len(set(shown)) == len(finished_ids)
    custom_first = [
        ids[n] for n in (order if stop_after is None else order[:stop_after]) if via_custom[n]
    ]
    assert shown[: len(custom_first)] == custom_first
    # every stored result was announced once, in the order it was stored
    saved = [e.record for e in events if isinstance(e, RecordSaved) and e.record.role == "tool"]
    assert [r.meta["tool_call_id"] for r in saved] == stored


def test_a_fast_call_behind_a_slow_one_is_stored_after_it(tmp_path: Path) -> None:
    stored, shown, _ = run_round(tmp_path, 2, [1, 0], [True, True], None)
    assert shown == ["call_1", "call_0"]
    assert stored == ["call_0", "call_1"]
