"""Ctrl+F (Ctrl+Enter where the terminal reports it) sends the composer's message into the
running turn: the model reads it after the tool round under way and the chat shows it where
it was read; a turn that makes no further call hands it back and it is sent next (real
``ChatOpenAI`` over HTTP to the fake server, a real SQLite store)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services

pytestmark = pytest.mark.usefixtures("researcher")


def user_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


@pytest.mark.parametrize("key", ["ctrl+f", "ctrl+enter", "palette"])
async def test_a_steer_joins_the_call_after_the_tool_round(
    remote_services: Services, fake_openai: FakeOpenAI, key: str
) -> None:
    held_round = Reply(
        deltas=["Looking."],
        tool_calls=[ToolCall("search_knowledge_base", {"query": "bm25"}, id="call_1")],
        holds=(1,),
    )
    fake_openai.script(held_round, "Voilà.")
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "find", wait=False)
        await wait_until(pilot, lambda: screen.running and len(fake_openai.chat_requests) == 1)
        screen.composer.load_text("in French")
        if key == "palette":
            await palette_run(pilot, "Steer the running turn")
        else:
            await pilot.press(key)
        assert screen.composer.text == ""
        fake_openai.release()
        await settle(pilot)
        assert len(fake_openai.chat_bodies) == 2
        assert user_texts(fake_openai.chat_bodies[1]) == ["find", "in French"]
        leaf = screen.state.leaf_id
        assert leaf is not None
        path = remote_services.store.path_to_root(leaf)
        assert [r.role for r in path] == ["user", "assistant", "tool", "user", "assistant"]
        assert path[3].content == "in French"
        shown = [(item.role, item.content) for item in screen.messages.items]
        assert ("user", "in French") in shown
        assert shown[-1] == ("assistant", "Voilà.")


async def test_a_steer_the_turn_never_reads_is_sent_next(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply.from_tokens(["First ", "answer."], holds=(1,)), "Second answer.")
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "one", wait=False)
        await wait_until(pilot, lambda: screen.running and len(fake_openai.chat_requests) == 1)
        screen.composer.load_text("too late")
        await pilot.press("ctrl+f")
        fake_openai.release()
        await wait_until(pilot, lambda: len(fake_openai.chat_requests) == 2)
        await settle(pilot)
        assert user_texts(fake_openai.chat_bodies[0]) == ["one"]
        assert user_texts(fake_openai.chat_bodies[1]) == ["one", "too late"]
        leaf = screen.state.leaf_id
        assert leaf is not None
        path = remote_services.store.path_to_root(leaf)
        assert [(r.role, r.content) for r in path] == [
            ("user", "one"),
            ("assistant", "First answer."),
            ("user", "too late"),
            ("assistant", "Second answer."),
        ]
