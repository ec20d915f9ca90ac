"""A message sent at a seat ends, at that seat, answered or marked with one sentence: whatever
way the mediator's reply ends badly (every finish reason that cuts, filters or refuses a reply,
an empty reply, a provider's refusal of the request, a reply held for repeating someone else's
private words), the message is stored once, its sender's seat shows the sentence (the reply's
record stays the host's: its words were never checked for that reader), no other seat shows
anything of it, and the next message the sender sends clears the note and is answered.

On the real runtime and seat book, the fake OpenAI-compatible server scripting each ending.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agents.reply_outcome import FILTERING, REFUSING, TRUNCATING
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.seat_queue import SeatQueueRunner
from storage.models import Conversation
from storage.seats import SeatBook
from tests.support.fake_openai import Reply
from weaver_tui.seat_app import waiting_text

SECRET = "I lost our savings at the casino last spring and I feel ashamed."
ENDINGS: dict[str, Reply] = {
    **{f"finish {r}": Reply("Half of my answ", finish_reason=r) for r in sorted(TRUNCATING)},
    **{f"finish {r}": Reply("Some words", finish_reason=r) for r in sorted(FILTERING)},
    **{f"finish {r}": Reply("", finish_reason=r) for r in sorted(REFUSING)},
    "refusal": Reply(refusal="I cannot help with that."),
    "empty": Reply(""),
    "request refused": Reply(status=400, error_message="bad request"),
    "held quote": Reply(f"Sam told me: {SECRET}"),
}


@pytest.fixture
def seats(store: Any) -> Iterator[SeatBook]:
    book = SeatBook(store.path)
    yield book
    book.close()


@pytest.mark.parametrize("ending", sorted(ENDINGS))
async def test_a_seat_message_whose_reply_ends_badly_is_marked_at_its_seat_only(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
    ending: str,
) -> None:
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    fake_openai.script(Reply("Thank you, Sam."))
    seats.enqueue(space.id, "Sam", SECRET, shared=False)
    fake_openai.script(ENDINGS[ending])
    seats.enqueue(space.id, "Alex", "What happened to the money?", shared=False)
    assert await runner.answer_waiting() == 2

    (note,) = seats.queued(space.id, "Alex")
    assert note.status == "failed"
    assert note.record_id is not None
    assert note.error
    shown = waiting_text(note).plain
    assert note.error in shown
    assert "casino" not in shown
    assert "Sam" not in shown  # nothing at Alex's seat says whose words were held
    assert seats.queued(space.id, "Sam") == []
    asked = [r for r in store.list_messages(space.id) if r.content == note.content]
    assert len(asked) == 1
    leaf = store.active_leaf(space.id)
    for viewer in ("Alex", "Sam"):
        assert all("casino" not in r.content or viewer == "Sam"
                   for r in store.path_to_root(leaf.id, viewer))  # fmt: skip

    fake_openai.script(Reply("Let us talk about it together."))
    seats.enqueue(space.id, "Alex", "Shall we talk?", shared=False)
    assert seats.queued(space.id, "Alex")[0].content == "Shall we talk?"  # the note is gone
    assert await runner.answer_waiting() == 1
    assert seats.queued(space.id) == []
    leaf = store.active_leaf(space.id)
    assert store.path_to_root(leaf.id, "Alex")[-1].content == "Let us talk about it together."
