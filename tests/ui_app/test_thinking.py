"""A thinking model's reply in the app: its reasoning is a folded line above the answer, the
line's count grows as it streams, and ``t`` on the message unfolds and folds it."""

from __future__ import annotations

import pytest

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen

pytestmark = pytest.mark.usefixtures("researcher")

THOUGHT = "Six times seven is forty-two."


def shown(screen: ChatScreen) -> list[str]:
    return screen.messages.text_lines()


async def test_reasoning_is_folded_above_the_answer_and_t_unfolds_it(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply(reasoning=["Six times seven ", "is forty-two."], deltas=["**42**."]))
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "What is six times seven?")
        reply = screen.messages.items[-1]
        assert (reply.content, reply.reasoning) == ("**42**.", THOUGHT)

        lines = shown(screen)
        folded = lines.index(f"▸ Thinking ({len(THOUGHT)} chars)")
        assert "42." in lines[folded + 1 :]
        assert not any("forty-two" in line for line in lines)

        screen.messages.focus()
        screen.messages.select_message(reply.id)
        await pilot.press("t")
        await settle(pilot)
        lines = shown(screen)
        unfolded = lines.index(f"▾ Thinking ({len(THOUGHT)} chars)")
        assert lines[unfolded + 1] == THOUGHT
        assert lines.index("42.") > unfolded + 1

        await pilot.press("t")
        await settle(pilot)
        lines = shown(screen)
        assert f"▸ Thinking ({len(THOUGHT)} chars)" in lines
        assert THOUGHT not in lines


async def test_the_folded_line_counts_reasoning_as_it_streams(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(
        Reply(
            reasoning=["<thinking> ", "a bit ", "more "],
            deltas=["Answer."],
            holds=(0,),  # the answer waits until the test has seen the reasoning stream
        )
    )
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "Think", wait=False)

        def counted(chars: int | None = None) -> bool:
            lines = screen.messages.visible_text()
            if chars is None:
                return any(line.startswith("▸ Thinking (") for line in lines)
            return f"▸ Thinking ({chars} chars)" in lines

        await wait_until(pilot, counted)  # the line is there while the reasoning streams
        assert screen.messages.items[-1].status == "streaming"
        assert "Answer." not in screen.messages.visible_text()
        fake_openai.release()
        await settle(pilot)
        assert counted(len("<thinking> a bit more "))
        assert "Answer." in screen.messages.visible_text()
        record = remote_services.store.get_message(screen.messages.items[-1].id)
        assert (record.content, record.meta["reasoning"]) == ("Answer.", "<thinking> a bit more ")
