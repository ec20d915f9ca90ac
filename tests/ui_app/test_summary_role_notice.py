"""The summary role in the app: when the ``summary`` role's server cannot be reached, the
automatic summary before a turn is written by the turn's model, and the notification that says
older turns were summarised says so, once, in a sentence; the turn runs on."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents import context
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, build_services, new_app, send, settle
from tests.ui_app.test_auto_summary import seed_long_branch, summaries, summarised
from weaver_tui.core.services import Services


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def dead_summary_services(weaver_env: Path, fake_openai: FakeOpenAI) -> Iterator[Services]:
    built = build_services(
        provider="openai-compatible",
        base_url=fake_openai.base_url,
        api_key="test-key",
        model="fake-model",
        http_timeout=10,
        roles={"summary": {"name": "openai-compatible", "model": "small-summary",
                           "base_url": f"http://127.0.0.1:{closed_port()}/v1"}},
    )  # fmt: skip
    yield built
    built.close_store()


async def test_an_unreachable_summary_role_is_said_once_in_the_notice(
    dead_summary_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(context.CONTEXT_WINDOWS, "fake-model", 6000)
    ids = seed_long_branch(dead_summary_services)
    fake_openai.script(Reply("- topics 0 and 1 were discussed"), Reply("the answer"))
    async with new_app(dead_summary_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "topic 4 question")
        summary_body, turn_body = fake_openai.chat_bodies[-2:]
        assert summary_body["model"] == turn_body["model"] == "fake-model"
        [covered] = summaries(dead_summary_services, ids)
        assert covered.meta["summary_model"] == "fake-model"
        [notice] = summarised(pilot)
        assert notice.count("summary model failed") == 1
