"""The warm-up after the first paint builds the chat model, once and off the UI thread, so the
first turn does not; the server's context window is asked only after that turn has streamed,
through the model's own client (over the connection the turn used)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import agents.providers as providers
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, wait_until
from weaver_tui.core.services import Services


async def test_the_warm_up_builds_the_model_once_and_the_window_is_asked_after_the_turn(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_openai.model_info["fake-model"] = {"max_model_len": 8192}
    fake_openai.script(Reply("hi"))
    build = providers.make_chat_model
    builders: list[threading.Thread] = []

    def recorded(config: providers.ProviderConfig) -> providers.ChatModelHandle:
        builders.append(threading.current_thread())
        return build(config)

    monkeypatch.setattr(providers, "make_chat_model", recorded)
    opened: list[bool] = []
    runtime = remote_services.runtime

    def recorded_runtime() -> Any:
        opened.append(True)
        return runtime()

    monkeypatch.setattr(remote_services, "runtime", recorded_runtime)
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: remote_services.model_built and screen.agents_ready)
        assert builders
        assert builders[0] is not threading.main_thread()
        await wait_until(pilot, lambda: bool(opened))  # the runtime too, before any turn
        assert not [r for r in fake_openai.requests if r.path.endswith("/models")]
        await send(pilot, "hello")
        await wait_until(pilot, lambda: screen.header.context.endswith("/8.2k tok"))
    assert len(builders) == 1
    assert len(opened) == 1
    models = [r for r in fake_openai.requests if r.path.endswith("/models")]
    assert len(models) == 1
    assert fake_openai.requests.index(models[0]) > fake_openai.requests.index(
        fake_openai.chat_requests[0]
    )
    assert models[0].peer == fake_openai.chat_requests[0].peer


async def test_the_warm_up_is_over_only_once_the_renderer_is_warm(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The renderer's first-use setup is part of the warm-up (a reply sent once the warm-up
    is over pays none of it), run off the event loop, once, however it was started."""
    import weaver_tui.widgets.message_view.rich_markdown as rich_markdown
    import weaver_tui.widgets.message_view.warm_up as render_warm_up

    monkeypatch.setattr(render_warm_up, "_started", False)
    monkeypatch.setattr(render_warm_up, "_done", threading.Event())
    runs: list[threading.Thread] = []
    monkeypatch.setattr(rich_markdown, "warm_up", lambda: runs.append(threading.current_thread()))
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.agents_ready)
        await wait_until(
            pilot,
            lambda: not any(w.group == "warm-up" and not w.is_finished for w in pilot.app.workers),
        )
        assert render_warm_up._done.is_set()
        render_warm_up.start()  # the view's own timer, later: nothing runs twice
    assert len(runs) == 1
    assert runs[0] is not threading.main_thread()
