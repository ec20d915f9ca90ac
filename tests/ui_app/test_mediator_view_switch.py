"""Switching the mediator's view (F3) while a private reply streams: the new view is filtered
at once, by the same rule as stored rows, and stays filtered for every later token. Sam never
reads the reply the mediator is writing to Alex; back in the model's view, the reply shows with
everything streamed so far. The model runs on the local OpenAI-compatible test server."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, new_app, send, settle, wait_until
from tests.ui_app.test_mediator_live_views import open_view, record_rows
from tests.ui_profiles.conftest import ALEX_SAYS
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen

WORDS = [f"private{n} " for n in range(300)]
"""The mediator's answer to Alex (no delivery tool: it goes to the speaker only)."""
AT_SWITCH = 10
"""The server holds the reply after this many words, until the view has been switched: the
switch happens while the reply is still being written, however loaded the machine."""
AFTER_SWITCH = 110
"""It holds again after this many: the words in between (over 500 characters) stream into
the switched view, and the reply is cancelled while it is still being written."""


def shown_text(screen: ChatScreen) -> str:
    return "\n".join(item.content for item in screen.messages.items)


async def switch_to(pilot: Pilot[Any], screen: ChatScreen, view: str | None) -> None:
    while screen.space_view != view:
        await pilot.press("f3")
        await pilot.pause()


async def stream_on_then_cancel(
    pilot: Pilot[Any], screen: ChatScreen, fake_openai: FakeOpenAI, characters: int
) -> None:
    """Release the held reply, let ``characters`` more of it stream in the switched view
    (still running then), then cancel it and let the app settle."""
    turn = screen.turn
    assert turn is not None

    def streamed() -> int:
        return sum(len(turn.streamed(i)) for i in turn.outcome.reply_ids)

    at_switch = streamed()
    fake_openai.release()
    await wait_until(pilot, lambda: streamed() > at_switch + characters)
    assert screen.running
    screen.action_cancel_reply()
    await settle(pilot)


async def test_switching_to_sams_view_mid_reply_hides_it_at_once(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply(deltas=WORDS, holds=(AT_SWITCH, AFTER_SWITCH)))
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 0)  # the model's view: everything
        await send(pilot, ALEX_SAYS, wait=False)
        await wait_until(pilot, lambda: "private3 " in shown_text(screen))

        await switch_to(pilot, screen, "Sam")
        assert screen.running, "the reply ended before the view was switched"
        assert "private" not in shown_text(screen)
        assert ALEX_SAYS not in shown_text(screen)
        seen = record_rows(screen)
        await stream_on_then_cancel(pilot, screen, fake_openai, 500)

        assert not [row for row in seen if "private" in row]
        assert "private" not in shown_text(screen)


async def test_switching_back_to_the_model_view_shows_all_streamed_so_far(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply(deltas=WORDS, holds=(AT_SWITCH,)))
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 3)  # Sam's view
        assert screen.space_view == "Sam"
        await send(pilot, ALEX_SAYS, wait=False)
        await wait_until(
            pilot,
            lambda: (
                screen.turn is not None
                and any(
                    "private1 " in screen.turn.streamed(i) for i in screen.turn.outcome.reply_ids
                )
            ),
        )
        assert "private" not in shown_text(screen)

        await switch_to(pilot, screen, None)
        assert screen.running, "the reply ended before the view was switched"
        reply = screen.messages.items[-1]
        assert reply.content.startswith("private0 private1 ")
        fake_openai.release()
        await settle(pilot)

        assert screen.messages.items[-1].content == "".join(WORDS)


async def test_a_view_that_hides_everything_says_so_instead_of_the_empty_chat_hint(
    services: Services,
) -> None:
    """Alex speaks privately; in Sam's view nothing is left to show, and the view says why
    (not "write a message", as if the conversation were empty); back in the model's view the
    messages are there and the hint is gone."""
    async with new_app(services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 0)
        hint = screen.empty_hint
        assert hint.display
        assert "Write a message below" in str(hint.render())
        await send(pilot, ALEX_SAYS)
        await settle(pilot)
        assert not hint.display
        await switch_to(pilot, screen, "Sam")
        assert screen.messages.items == []
        assert hint.display
        assert "Nothing in Sam's view yet" in str(hint.render())
        await switch_to(pilot, screen, None)
        assert screen.messages.items
        assert not hint.display


async def test_alexs_view_shows_nothing_of_a_reply_whose_audience_is_not_settled(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    """Alex spoke, and the mediator is still writing: the words may end up with Sam (here it
    goes on to answer Sam privately), so switching to Alex's view mid-reply shows none of
    them; Alex's view reads through the store's viewer filter, where a reply still streaming
    is nobody's but the facilitator's."""
    aside = [f"aside{n} " for n in range(300)]
    call = ToolCall("reply_privately", {"recipient": "Sam", "content": "Only for Sam."})
    fake_openai.script(
        Reply(deltas=aside, holds=(AT_SWITCH, AFTER_SWITCH), tool_calls=[call]), Reply("Done.")
    )
    async with new_app(remote_services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = await open_view(pilot, 0)  # the model's view: everything
        await send(pilot, ALEX_SAYS, wait=False)
        await wait_until(pilot, lambda: "aside3 " in shown_text(screen))

        await switch_to(pilot, screen, "Alex")
        assert screen.running, "the reply ended before the view was switched"
        assert "aside" not in shown_text(screen)
        assert ALEX_SAYS in shown_text(screen)  # Alex's own words stay
        seen = record_rows(screen)
        await stream_on_then_cancel(pilot, screen, fake_openai, 200)

        assert not [row for row in seen if "aside" in row]
        assert "aside" not in shown_text(screen)
