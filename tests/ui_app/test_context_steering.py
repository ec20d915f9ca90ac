"""Steering the context: the header counts what the next turn sends against the model's
window and warns near it; a message can be pinned (sent however old) or left out (never
sent); "Summarise older turns" stores a summary the model reads in place of the older
messages, while the tree keeps them. Checked on what the local test server receives."""

from __future__ import annotations

import pytest

import agents.context as context
from agents.context import SUMMARY_HEADING
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services


def sent_texts(fake_openai: FakeOpenAI) -> list[str]:
    return [str(m.get("content")) for m in fake_openai.chat_bodies[-1]["messages"]]


async def test_pinned_and_left_out_messages_change_what_the_model_reads(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(*[Reply(f"answer {n}") for n in range(4)])
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        remote_services.settings.turns.context_messages = 2  # a two-message window, read per turn
        await send(pilot, "my budget is 300")
        first = screen.messages.items[0].id
        await send(pilot, "second question")
        screen.selected_id = first
        await palette_run(pilot, "Pin in context")
        assert "📌 pinned" in screen.messages.items[0].badge
        second = screen.messages.items[2].id
        screen.selected_id = second
        await palette_run(pilot, "Leave out of context")
        await send(pilot, "third question")
        texts = sent_texts(fake_openai)
        assert "my budget is 300" in texts  # pinned: older than the two-message window
        assert "second question" not in texts  # left out
        assert texts[-1] == "third question"


async def test_summarising_older_turns_replaces_them_for_the_model(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(*[Reply(f"answer {n}") for n in range(4)], Reply("- user: asked 0..3"), Reply("ok"))  # fmt: skip
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        for n in range(4):
            await send(pilot, f"question {n}")
        await palette_run(pilot, "Summarise older turns")
        await wait_until(pilot, lambda: any("Summarised the" in n.message for n in pilot.app._notifications))  # fmt: skip
        summary_request = fake_openai.chat_bodies[-1]["messages"]
        assert "question 0" in summary_request[-1]["content"]
        await settle(pilot)
        assert any("▤ summarised above" in item.badge for item in screen.messages.items)
        await send(pilot, "question 4")
        texts = sent_texts(fake_openai)
        assert f"{SUMMARY_HEADING}\n> - user: asked 0..3" in texts
        assert "question 0" not in texts
        assert "question 3" in texts
        assert len(screen.messages.items) == 10  # the tree and the view keep every message


async def test_the_header_counts_the_context_and_warns_near_the_window(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "hello there")
        assert screen.header.context.endswith("/32k tok")
        assert not screen.header.context_warn
        assert screen.header.context.split("/")[0].isdigit()  # a short branch: exact tokens
        monkeypatch.setitem(context.CONTEXT_WINDOWS, "offline", 40)
        await send(pilot, "and a second, somewhat longer message to fill the tiny window")
        assert screen.header.context_warn
        assert any("Context nearly full" in (n.title or "") for n in pilot.app._notifications)


async def test_a_model_the_presets_do_not_know_gets_its_window_from_the_server(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.model_info["fake-model"] = {"max_model_len": 8192}
    fake_openai.script(Reply("hi"))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "hello")
        await wait_until(pilot, lambda: screen.header.context.endswith("/8.2k tok"))
