"""An OpenAI-compatible server with no model named: its only model is used; with several, or a
server that cannot list them, one sentence says a model must be named (never "default")."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pydantic import SecretStr

from agents.errors import ConfigError
from agents.providers import ProviderConfig, make_chat_model
from tests.support.fake_openai import FakeOpenAI


def _config(base_url: str, model: str = "") -> ProviderConfig:
    return ProviderConfig(
        provider="openai-compatible", base_url=base_url, api_key=SecretStr("k"), model=model
    )


def test_the_servers_only_model_is_used(fake_openai: FakeOpenAI) -> None:
    fake_openai.models = ["qwen2.5-7b"]
    handle = make_chat_model(_config(fake_openai.base_url))
    assert handle.model_name == "qwen2.5-7b"
    assert any(r.path.endswith("/models") for r in fake_openai.requests)


def test_several_models_need_a_name_and_the_sentence_lists_them(fake_openai: FakeOpenAI) -> None:
    fake_openai.models = ["a-model", "b-model"]
    with pytest.raises(ConfigError, match=r"serves several models \(a-model, b-model\): name one"):
        make_chat_model(_config(fake_openai.base_url))
    assert make_chat_model(_config(fake_openai.base_url, "b-model")).model_name == "b-model"


def test_a_server_that_cannot_list_says_a_model_must_be_named(tmp_path: Path) -> None:
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:  # answers 404 to /v1/models
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with pytest.raises(ConfigError, match="did not list its models"):
                make_chat_model(_config(f"http://127.0.0.1:{server.server_port}/v1"))
        finally:
            server.shutdown()


def test_a_server_that_is_not_listening_is_named_as_unreachable() -> None:
    with pytest.raises(
        ConfigError, match=r"Cannot connect to the server at http://127\.0\.0\.1:9/v1"
    ):
        make_chat_model(_config("http://127.0.0.1:9/v1"))
