"""A reply streamed as a draft shows in the chat while it is written, its badge saying it is a
draft; the critic's verdict clears the mark (``✓ checked``), and a rejected draft is replaced
in place by the retry's. paper-pilot on the local OpenAI-compatible server (real HTTP, SSE),
its questions answered from the shipped notes by the knowledge server the worker's tests share
(``shared_notes``)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.paper_pilot.drafts import (
    REJECTED,
    SETTLED,
    route,
    script_rejected_then_settled,
    verdict,
)
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.widgets.message_view import MessageItem

WAIT_S = 60.0
"""Bound on a wait for the app (on a loaded machine)."""


def last_reply(screen: Any) -> MessageItem | None:
    items = screen.messages.items
    return items[-1] if items and items[-1].role == "assistant" else None


@pytest.mark.usefixtures("shared_notes")
async def test_the_draft_badge_shows_while_the_critic_reads_and_clears_after(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    critic_may_answer = threading.Event()

    def critic(body: dict[str, Any]) -> Reply:
        critic_may_answer.wait(WAIT_S)  # the test looks at the chat meanwhile
        return verdict(True)

    fake_openai.script(route(), Reply(SETTLED), critic)
    async with new_app(remote_services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        try:
            await send(pilot, "What is LoRA?", wait=False)

            def draft_shown() -> bool:
                reply = last_reply(screen)
                return reply is not None and "low-rank" in reply.content

            await wait_until(pilot, draft_shown, bound_s=WAIT_S)
            drafting = last_reply(screen)
            assert drafting is not None
            assert "draft" in drafting.badge
            assert drafting.status == "streaming"
        finally:
            critic_may_answer.set()
        await settle(pilot, bound_s=WAIT_S)
        settled = last_reply(screen)
        assert settled is not None
        assert settled.status == "complete"
        assert "draft" not in settled.badge
        assert "✓ checked" in settled.badge
        assert settled.content.startswith(SETTLED.removesuffix(" [1]."))
        assert "Sources" in settled.content


@pytest.mark.usefixtures("shared_notes")
async def test_a_rejected_draft_is_replaced_in_place_by_the_retry(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    script_rejected_then_settled(fake_openai)
    async with new_app(remote_services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        streamed: list[str] = []
        append = screen.messages.append_text

        def append_text(message_id: str, text: str) -> None:
            streamed.append(text)
            append(message_id, text)

        screen.messages.append_text = append_text  # type: ignore[method-assign]
        await send(pilot, "What is LoRA?", wait=False)
        await wait_until(pilot, lambda: not fake_openai.pending, bound_s=WAIT_S)
        await settle(pilot, bound_s=WAIT_S)
        replies = [item for item in screen.messages.items if item.role == "assistant"]
        assert "replaces every weight" in "".join(streamed)  # the rejected draft was shown
        assert len(replies) == 1  # one reply: the retry took the rejected draft's place
        assert REJECTED.removesuffix(" [1].") not in replies[0].content
        assert replies[0].content.startswith(SETTLED.removesuffix(" [1]."))
        assert "✓ checked" in replies[0].badge
