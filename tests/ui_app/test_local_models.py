"""A local model with no key: the app finds a server on 127.0.0.1 in the background (the test
suite's fake OpenAI-compatible server, on the port the ``local_servers`` setting names), the
header says so, the model picker offers its models, and the offline demo stays until picked."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from agents.providers.local_servers import LocalServer, probe_local_servers
from tests.support.fake_openai import FakeOpenAI
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.model_picker import ModelPickerScreen


def closed_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_probe_lists_the_models_of_servers_that_answer_and_skips_the_rest(
    fake_openai: FakeOpenAI,
) -> None:
    found = probe_local_servers({"ollama": closed_port(), "vllm": fake_openai.port})
    assert found == [
        LocalServer("vllm", f"http://127.0.0.1:{fake_openai.port}/v1", tuple(fake_openai.models))
    ]
    assert found[0].provider == "vllm"
    assert [r.path for r in fake_openai.requests] == ["/v1/models"]


@pytest.fixture
def keyless_services(weaver_env: Path, fake_openai: FakeOpenAI) -> Iterator[Services]:
    """``provider: auto`` with no key (so offline), looking for a server on the fake's port."""
    built = build_services(local_servers={"llama.cpp": fake_openai.port, "ollama": closed_port()})
    yield built
    built.close_store()


async def test_a_local_server_is_offered_in_the_picker_and_used_once_picked(
    keyless_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = new_app(keyless_services, profile="ide-helper")
    said: list[str] = []
    notify = app.notify

    def noted(message: str, **options: Any) -> None:
        said.append(message)  # kept: a toast expires after a few seconds on a slow machine
        notify(message, **options)

    monkeypatch.setattr(app, "notify", noted)
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: bool(screen.header.local_model))
        assert screen.header.provider == "offline"
        assert "local model" in "".join(text for text, _ in screen.header.shown())
        assert any("Ctrl+L" in message for message in said)
        assert keyless_services.model.is_offline  # the demo stays until the user picks

        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ModelPickerScreen))
        picker = pilot.app.screen
        options = picker.query_one("#provider-list", OptionList)
        first = options.get_option_at_index(0)
        assert first.id == "local:llama.cpp"
        options.highlighted = 0
        await pilot.pause()
        assert "fake-model-large" in str(picker.query_one("#model-suggestions").render())
        await pilot.press("enter", "enter")  # to the model field, then apply
        await settle(pilot)

        handle = keyless_services.model
        assert not handle.is_offline
        assert handle.base_url == f"http://127.0.0.1:{fake_openai.port}/v1"
        assert handle.model_name == "fake-model"
        await send(pilot, "hello over loopback")
        chats = [r for r in fake_openai.requests if r.path.endswith("/chat/completions")]
        assert chats
        assert chats[-1].body is not None
        assert chats[-1].body["messages"][-1]["content"] == "hello over loopback"


async def test_an_explicit_provider_is_never_probed(
    weaver_env: Path, fake_openai: FakeOpenAI
) -> None:
    services = build_services(provider="offline", local_servers={"vllm": fake_openai.port})
    try:
        async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert chat(pilot.app).header.local_model == ""
        assert fake_openai.requests == []
    finally:
        services.close_store()
