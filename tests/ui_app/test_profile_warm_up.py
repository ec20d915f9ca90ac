"""The app runs a profile's warm-up once it can take a question and whenever a conversation of
that profile opens: paper-pilot's knowledge server is running before the first question, and
that question's turn asks the same server (one process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.paper_pilot.drafts import SETTLED, route, verdict
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.knowledge_processes import knowledge_servers
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services

WAIT_S = 60.0
"""Bound on a wait for the app (the knowledge server starts as a real subprocess)."""


def last_reply(screen: Any) -> Any:
    items = screen.messages.items
    return items[-1] if items and items[-1].role == "assistant" else None


async def test_opening_paper_pilot_starts_the_knowledge_server_the_first_question_uses(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    data_dir = Path(remote_services.settings.storage.data_dir)
    fake_openai.script(route(), Reply(SETTLED), verdict(True))
    async with new_app(remote_services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: len(knowledge_servers(data_dir)) == 1, bound_s=WAIT_S)
        assert not fake_openai.chat_requests  # no question was sent
        started = knowledge_servers(data_dir)
        await send(pilot, "What is LoRA?", wait=False)
        await settle(pilot, bound_s=WAIT_S)
        reply = last_reply(screen)
        assert reply is not None
        assert reply.status == "complete"
        assert "Sources" in reply.content  # the server answered the question
        assert knowledge_servers(data_dir) == started


async def test_switching_to_a_paper_pilot_conversation_starts_its_knowledge_server(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    data_dir = Path(remote_services.settings.storage.data_dir)
    research = remote_services.store.create_conversation("paper-pilot", "research")
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.controller.runtime_open, bound_s=WAIT_S)
        await settle(pilot, bound_s=WAIT_S)
        assert knowledge_servers(data_dir) == []  # ide-helper declares no warm-up
        screen.open_conversation(research.id)
        await wait_until(pilot, lambda: len(knowledge_servers(data_dir)) == 1, bound_s=WAIT_S)
        assert not fake_openai.chat_requests
