"""Esc cancels a running reply and keeps what arrived; provider failures show a sentence inline
and as a notification, never a traceback, and F5 retries."""

from __future__ import annotations

import pytest

from storage.models import MessageStatus
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services

pytestmark = pytest.mark.usefixtures("researcher")

PROFILE = "researcher"


async def test_escape_cancels_and_keeps_the_partial_reply_marked_cancelled(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    words = [f"word{n} " for n in range(400)]
    fake_openai.script(Reply(deltas=words, holds=(10,)))  # still running when Esc comes
    async with new_app(remote_services, profile=PROFILE).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "talk for a long time", wait=False)
        await wait_until(
            pilot,
            lambda: bool(screen.messages.items) and "word3 " in screen.messages.items[-1].content,
        )
        await pilot.press("escape")
        await settle(pilot)
        reply = screen.state.store.get_message(screen.messages.items[-1].id)
        assert reply.role == "assistant"
        assert reply.status == MessageStatus.CANCELLED
        assert reply.content.startswith("word0 word1 word2 word3")
        assert len(reply.content.split()) < len(words)
        assert screen.messages.items[-1].status == "cancelled"
        assert screen.messages.items[-1].content == reply.content
        assert not screen.running
        assert screen.header.busy == ""
        assert screen.check_action("retry", ()) is True


async def test_provider_error_is_shown_inline_and_notified_then_retried(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply.unauthorized(), Reply("Now it works."))
    app = new_app(remote_services, profile=PROFILE)
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "hello?")
        failed = screen.messages.items[-1]
        assert failed.role == "assistant"
        assert failed.status == "error"
        assert failed.error
        assert "Traceback" not in failed.error
        stored = screen.state.store.get_message(failed.id)
        assert stored.status == MessageStatus.ERROR
        notices = [n for n in app._notifications if n.severity == "error"]
        assert notices
        assert failed.error in notices[-1].message
        assert all("Traceback" not in n.message for n in app._notifications)
        await pilot.press("f5")
        await settle(pilot)
        replies = screen.state.store.siblings(failed.id)
        assert [r.status for r in replies] == [MessageStatus.ERROR, MessageStatus.COMPLETE]
        assert screen.messages.items[-1].content == "Now it works."


async def test_missing_key_names_the_variable_to_set(weaver_env: object) -> None:
    services = build_services(provider="openai")
    try:
        app = new_app(services, profile=PROFILE)
        async with app.run_test(size=SIZE) as pilot:
            screen = chat(app)
            warnings = [n.message for n in app._notifications]
            assert any("OPENAI_API_KEY" in m and "api_key" in m for m in warnings)
            await send(pilot, "anyone there?")
            item = screen.messages.items[-1]
            assert item.role == "user"
            assert item.status == "error"
            assert "OPENAI_API_KEY" in item.error
            assert services.store.get_message(item.id).content == "anyone there?"
    finally:
        services.close_store()
