"""Enter while a reply is being written holds the message under the reply and sends it when
the turn ends (real ``ChatOpenAI`` over HTTP to the fake server, a real SQLite store); a stop
keeps the held messages, paused; a held message can be taken back into the composer."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.prompt_queue import PromptQueue
from weaver_tui.core.services import Services
from weaver_tui.widgets.queued_strip import QueuedStrip

pytestmark = pytest.mark.usefixtures("researcher")


def held_reply() -> Reply:
    """A reply that streams its first word, then waits for one ``release()``."""
    return Reply.from_tokens(["First ", "answer."], holds=(1,))


def user_messages(body: dict[str, object]) -> list[object]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "user"]


async def test_a_message_sent_during_a_reply_is_sent_when_it_ends(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(held_reply(), "Second answer.")
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "one", wait=False)
        await wait_until(pilot, lambda: screen.running and len(fake_openai.chat_requests) == 1)
        await send(pilot, "two", wait=False)
        strip = screen.query_one(QueuedStrip)
        await wait_until(pilot, lambda: strip.option_count == 1)
        assert screen.composer.text == ""
        assert strip.display
        fake_openai.release()
        await wait_until(pilot, lambda: len(fake_openai.chat_requests) == 2)
        await settle(pilot)
        assert user_messages(fake_openai.chat_bodies[1]) == ["one", "two"]
        assert strip.option_count == 0
        assert not strip.display
        leaf = screen.state.leaf_id
        assert leaf is not None
        path = [(r.role, r.content) for r in remote_services.store.path_to_root(leaf)]
        assert path == [
            ("user", "one"),
            ("assistant", "First answer."),
            ("user", "two"),
            ("assistant", "Second answer."),
        ]


async def test_a_stop_keeps_the_held_messages_and_one_goes_back_to_the_composer(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(held_reply(), "Not asked for.")
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "one", wait=False)
        await wait_until(pilot, lambda: screen.running and len(fake_openai.chat_requests) == 1)
        await send(pilot, "two", wait=False)
        await send(pilot, "three", wait=False)
        strip = screen.query_one(QueuedStrip)
        await wait_until(pilot, lambda: strip.option_count == 2)
        await pilot.press("escape")
        fake_openai.release()
        await settle(pilot)
        assert len(fake_openai.chat_requests) == 1  # nothing sent on its own after a stop
        conversation = screen.state.conversation
        assert conversation is not None
        assert screen.held.queue.paused(conversation.id)
        assert strip.option_count == 2
        strip.focus()
        strip.highlighted = 0
        await pilot.press("delete")  # drops "two"
        await settle(pilot)
        assert [p.text for p in screen.held.queue.held] == ["three"]
        strip.focus()
        strip.highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert screen.composer.text == "three"
        assert strip.option_count == 0


class StripHost(App[None]):
    """The strip alone, holding two messages (one long, one of two lines)."""

    def compose(self) -> ComposeResult:
        yield QueuedStrip()

    def on_mount(self) -> None:
        queue = PromptQueue()
        queue.hold("Also check the tests under tests/runtime " + "and their fixtures " * 8)
        queue.hold("Then summarise\nwhat changed")
        queue.turn_ended(None, complete=False)
        self.query_one(QueuedStrip).show(queue.held, queue.sentence(None))


def test_queued_strip_snapshot(snap_compare: Callable[..., bool]) -> None:
    async def settle_strip(pilot: Pilot[None]) -> None:
        await pilot.pause()

    assert snap_compare(StripHost(), terminal_size=(90, 8), run_before=settle_strip)


async def test_a_message_held_in_one_conversation_is_not_sent_in_another(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(held_reply(), "Elsewhere.", "Not asked for.")
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "one", wait=False)
        await wait_until(pilot, lambda: screen.running and len(fake_openai.chat_requests) == 1)
        await send(pilot, "two", wait=False)
        strip = screen.query_one(QueuedStrip)
        await wait_until(pilot, lambda: strip.option_count == 1)
        await pilot.press("escape")
        fake_openai.release()
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert strip.option_count == 0  # the strip shows what waits in the open conversation
        await send(pilot, "three")
        assert len(fake_openai.chat_requests) == 2  # "two" stays with its own conversation
        assert user_messages(fake_openai.chat_bodies[1]) == ["three"]
        assert [p.text for p in screen.held.queue.held] == ["two"]
