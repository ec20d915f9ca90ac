"""The mediator demo played in the app from the command palette, on the offline model: each
turn goes through the chat's send path and turn worker; Esc stops the demo."""

from __future__ import annotations

from agents.profiles.mediator.demo import DEMO_PARTICIPANTS, DEMO_TURNS, ExpectedAction
from agents.shared_space.actions import POST_TO_SHARED
from agents.shared_space.events import SHARED
from storage.models import MessageRecord
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services


def actions_of_turn(records: list[MessageRecord], user_id: str) -> list[ExpectedAction]:
    """The deliveries stored for the turn answering ``user_id``: tool results below it, in
    the order of the calls, up to the next participant message."""
    by_parent: dict[str | None, list[MessageRecord]] = {}
    for record in records:
        by_parent.setdefault(record.parent_id, []).append(record)
    calls: dict[str, int] = {}
    found: list[tuple[int, ExpectedAction]] = []
    node = by_parent.get(user_id, [])
    while node and node[0].role != "user":
        record = node[0]
        for call in record.tool_calls if record.role == "assistant" else ():
            calls[call["id"]] = len(calls)
        name = record.meta.get("name")
        if record.role == "tool" and not record.meta.get("error") and name:
            meta = record.meta
            recipient = SHARED if name == POST_TO_SHARED else meta.get("recipient")
            recipient = str(recipient or meta.get("visibility"))
            found.append((calls.get(record.tool_call_id or "", 0), ExpectedAction(name, recipient)))
        node = by_parent.get(record.id, [])
    return [action for _, action in sorted(found, key=lambda pair: pair[0])]


async def test_the_demo_plays_every_turn_in_the_app(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        screen.demo_pause_s = 0.01
        await wait_until(pilot, lambda: screen.agents_ready)
        await palette_run(pilot, "Play mediator demo")
        await wait_until(
            pilot, lambda: screen.demo is not None and not screen.demo.active, bound_s=60
        )
        await settle(pilot)
        demo = screen.demo
        assert demo is not None
        assert demo.phase == "finished", demo.phase
        assert demo.statuses == ["complete"] * len(DEMO_TURNS)
        conversation = screen.state.store.get_conversation(demo.conversation_id or "")
        assert conversation.profile == "mediator"
        assert tuple(conversation.meta["participants"]) == DEMO_PARTICIPANTS
        assert screen.state.conversation is not None
        assert screen.state.conversation.id == conversation.id  # the chat shows the demo space
        records = screen.state.store.list_messages(conversation.id)
        users = {r.id: r for r in records if r.role == "user"}
        assert list(users) == demo.user_ids
        for turn, user_id in zip(DEMO_TURNS, demo.user_ids, strict=True):
            user = users[user_id]
            assert user.content == turn.content
            assert user.meta["sender"] == turn.sender  # sent as that participant
            assert user.meta["visibility"] == (SHARED if turn.channel == "shared" else turn.sender)
            stored = actions_of_turn(records, user_id)
            assert tuple(stored) == turn.expected, (turn.content, stored)
        # the model view shows every delivery as the mediator's message to its audience
        headers = [item.badge for item in screen.messages.items if item.badge.startswith("Medi")]
        expected = sum(len(turn.expected) for turn in DEMO_TURNS)
        assert len(headers) == expected
        assert "Mediator → everyone" in headers
        assert "Mediator → Sam" in headers
        assert not any(i.content.startswith("Delivered ") for i in screen.messages.items)
        from agents.shared_space.statements import statement_board

        round_played = statement_board(screen.state.store, conversation.id, "shared")[0]
        assert round_played.agreed is not None  # the same statement round as headless
        assert round_played.agreed.number == 2


async def test_esc_stops_the_demo(services: Services) -> None:
    async with new_app(services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        screen.demo_pause_s = 120  # the pause after turn 1 lasts until Esc
        await wait_until(pilot, lambda: screen.agents_ready)
        await palette_run(pilot, "Play mediator demo")
        await wait_until(pilot, lambda: screen.demo is not None and screen.demo.phase == "pause")
        await pilot.press("escape")
        await wait_until(pilot, lambda: screen.demo is not None and not screen.demo.active)
        await settle(pilot)
        demo = screen.demo
        assert demo is not None
        assert demo.phase == "stopped"
        assert demo.statuses == ["complete"]
        records = screen.state.store.list_messages(demo.conversation_id or "")
        assert [r.content for r in records if r.role == "user"] == [DEMO_TURNS[0].content]
        assert not screen.running  # Esc freed the chat: a person can type again
        assert screen.check_action("play_demo", ()) is True


async def test_esc_in_a_turn_cancels_it_and_stops_the_demo(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    """A slow first reply from the local server: Esc while it streams ends the turn
    cancelled, and no further turn is sent."""
    words = [f"word{n} " for n in range(400)]
    fake_openai.script(Reply(deltas=words, holds=(10,)))  # still streaming when Esc comes
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        screen.demo_pause_s = 0.01
        await wait_until(pilot, lambda: screen.agents_ready)
        await palette_run(pilot, "Play mediator demo")
        await wait_until(
            pilot,
            lambda: bool(screen.messages.items) and "word3 " in screen.messages.items[-1].content,
        )
        await pilot.press("escape")
        await wait_until(pilot, lambda: screen.demo is not None and not screen.demo.active)
        await settle(pilot)
        demo = screen.demo
        assert demo is not None
        assert demo.phase == "stopped"
        assert demo.statuses == ["cancelled"]
        records = screen.state.store.list_messages(demo.conversation_id or "")
        assert [r.content for r in records if r.role == "user"] == [DEMO_TURNS[0].content]
        assert not screen.running
