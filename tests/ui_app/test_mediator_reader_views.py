"""A participant's view (F3) reads only what that participant may read, in every pane: the tree
pane and the conversations search show neither Sam's private message nor the mediator's private
reply to Sam in Alex's view; the facilitator's view still shows both. Checked on the rendered
screen, with the space stored in a real SQLite file and the app on the offline model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Label

from storage.store import ConversationStore
from tests.support.fake_openai import FakeOpenAI
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_control_sequences import screen_text
from tests.ui_app.test_mediator_live_views import open_view, script_turn
from tests.ui_app.test_mediator_view_switch import switch_to
from tests.ui_profiles.conftest import ALEX_SAYS, SHARED_POST
from weaver_tui.core.services import Services
from weaver_tui.screens.conversations import ConversationsScreen

SAM_SECRET = "Casino debts keep me awake at night."
PRIVATE_REPLY = "Courage, Sam: we will sort the debts out."
ALEX_SHARED = "Budget talk tonight, everyone?"


def _space(store: ConversationStore) -> str:
    """Sam privately, the mediator's private reply to Sam, then Alex to everyone."""
    conversation = store.create_conversation(
        "mediator", "Shared space with Alex and Sam", meta={"participants": ["Alex", "Sam"]}
    )
    cid = conversation.id
    secret = store.add_message(
        cid, "user", SAM_SECRET, None, {"sender": "Sam", "visibility": "Sam"}
    )
    call = {"id": "p1", "name": "reply_privately",
            "args": {"recipient": "Sam", "content": PRIVATE_REPLY}}  # fmt: skip
    calling = store.add_message(cid, "assistant", "", secret.id, {"tool_calls": [call]})
    delivered = store.add_message(
        cid, "tool", "Delivered privately to Sam; only Sam can read it.", calling.id,
        {"tool_call_id": "p1", "name": "reply_privately", "visibility": "Sam",
         "recipient": "Sam", "delivered_content": PRIVATE_REPLY},
    )  # fmt: skip
    shared = store.add_message(
        cid, "user", ALEX_SHARED, delivered.id, {"sender": "Alex", "visibility": "shared"}
    )
    store.set_active_leaf(cid, shared.id)
    return cid


def _status(pilot: Any) -> str:
    return str(pilot.app.screen.query_one("#conversations-status", Label).render())


async def _open(pilot: Any) -> Any:
    screen = chat(pilot.app)
    await wait_until(pilot, lambda: screen.agents_ready and not screen.presenter.tree_pending)
    await settle(pilot)
    return screen


async def test_alexs_tree_pane_never_shows_sams_private_exchange(services: Services) -> None:
    cid = _space(services.store)
    async with new_app(services, profile="mediator", conversation_id=cid).run_test(
        size=SIZE
    ) as pilot:
        screen = await _open(pilot)
        everything = screen_text(pilot)
        assert "Casino" in everything
        assert "Courage" in everything

        await switch_to(pilot, screen, "Alex")
        await settle(pilot)
        shown = screen_text(pilot)
        assert "Budget talk" in shown
        assert "Casino" not in shown
        assert "Courage" not in shown
        tree = screen.tree
        assert tree.is_shown(screen.state.leaf_id or "")


async def test_search_from_alexs_view_never_finds_sams_private_words(services: Services) -> None:
    cid = _space(services.store)
    async with new_app(services, profile="mediator", conversation_id=cid).run_test(
        size=SIZE
    ) as pilot:
        screen = await _open(pilot)
        await switch_to(pilot, screen, "Alex")
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConversationsScreen))
        await pilot.press(*"debts")  # typing goes to the search box
        await wait_until(pilot, lambda: "match" in _status(pilot))
        shown = screen_text(pilot)
        assert _status(pilot) == "Nothing matches “debts”."
        assert "Casino" not in shown
        assert "Courage" not in shown
        assert len(services.store.search("debts")) == 2  # the facilitator's search finds both


async def test_sams_tool_pane_never_shows_a_private_reply_to_alex(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    """The mediator's calls are its own working: in Sam's view the tool pane shows none of
    them, so the arguments of a private reply to Alex never reach Sam's screen."""
    script_turn(fake_openai)
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 3)  # model view -> shared -> Alex -> Sam
        assert screen.space_view == "Sam"
        await send(pilot, ALEX_SAYS)
        await settle(pilot)
        shown = screen_text(pilot)
        assert "Thank you for telling me" not in shown
        assert "reply_privately" not in shown
        assert SHARED_POST[:20] in shown  # the post to everyone reaches Sam


async def test_an_export_from_alexs_view_holds_only_what_alex_may_read(services: Services) -> None:
    cid = _space(services.store)
    async with new_app(services, profile="mediator", conversation_id=cid).run_test(
        size=SIZE
    ) as pilot:
        screen = await _open(pilot)
        await switch_to(pilot, screen, "Alex")
        screen.saver.export_conversation()
        await settle(pilot)
    exports = Path(services.settings.storage.data_dir) / "exports"
    (folder,) = exports.iterdir()
    assert folder.name.endswith("-alex")
    markdown = (folder / "conversation.md").read_text(encoding="utf-8")
    records = (folder / "messages.jsonl").read_text(encoding="utf-8")
    assert ALEX_SHARED in markdown
    assert ALEX_SHARED in records
    for text in (markdown, records):
        assert "Casino" not in text
        assert "Courage" not in text


async def test_alexs_view_in_the_host_shows_what_alexs_seat_shows(services: Services) -> None:
    """A reply cut off before its audience was settled (no delivery, no audience recorded) is
    nobody's but the facilitator's: the host's view of Alex reads the same filtered query as
    Alex's seat, so neither shows it, though Alex spoke last."""
    from agents.shared_space.seat_view import seat_lines
    from storage.models import MessageStatus

    store = services.store
    cid = _space(store)
    leaf = store.get_conversation(cid).meta["active_leaf"]
    cut = store.add_message(cid, "assistant", "Sam told me the debts are", leaf)
    store.update_message(cut.id, status=MessageStatus.CANCELLED)
    store.set_active_leaf(cid, cut.id)
    async with new_app(services, profile="mediator", conversation_id=cid).run_test(
        size=SIZE
    ) as pilot:
        screen = await _open(pilot)
        assert "Sam told me" in "\n".join(i.content for i in screen.messages.items)

        await switch_to(pilot, screen, "Alex")
        await settle(pilot)
        shown = [item.content for item in screen.messages.items]
        assert shown == [line.content for line in seat_lines(store, cid, "Alex")]
        assert shown == [ALEX_SHARED]


async def test_switching_to_sams_view_after_a_turn_takes_the_private_calls_off_the_tool_pane(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    """The tool pane follows the view: the facilitator's view showed the turn's calls; Sam's
    view, chosen after the turn, shows none of a private reply to Alex."""
    script_turn(fake_openai)
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.conversation_open)
        await send(pilot, ALEX_SAYS)
        await settle(pilot)
        assert "reply_privately" in " ".join(row.tool_name for row in screen.tools.rows)
        screen = await open_view(pilot, 3)  # model view -> shared -> Alex -> Sam
        assert screen.space_view == "Sam"
        await settle(pilot)
        assert "reply_privately" not in " ".join(row.tool_name for row in screen.tools.rows)
        assert "Thank you for telling me" not in screen_text(pilot)
