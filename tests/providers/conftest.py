"""Provider tests talk to the local fake OpenAI server with a clean environment."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from pydantic import SecretStr

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from tests.support.fake_openai import FakeOpenAI, fake_openai  # noqa: F401

TEST_KEY = "sk-test-DO-NOT-LEAK-1234567890"

_PROVIDER_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_API_BASE",
    "MOONSHOT_API_KEY",
    "DEEPSEEK_API_KEY",
    "DASHSCOPE_API_KEY",
    "AGENT_LOG_REDACT_CONTENT",
    "LANGCHAIN_OPENAI_STREAM_CHUNK_TIMEOUT_S",
)
_PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def clean_provider_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, base URL or proxy from the machine running the tests leaks into them."""
    for name in list(os.environ):
        if name.startswith("WEAVER_") or name.upper() in _PROVIDER_VARIABLES + _PROXY_VARIABLES:
            monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fake_model(fake_openai: FakeOpenAI) -> Callable[..., ChatModelHandle]:  # noqa: F811
    """Builds an ``openai-compatible`` chat model pointed at the fake server."""

    def build(**overrides: object) -> ChatModelHandle:
        fields: dict[str, object] = {
            "provider": "openai-compatible",
            "base_url": fake_openai.base_url,
            "api_key": SecretStr(TEST_KEY),
            "model": "fake-model",
            "timeout": 5.0,
        }
        fields.update(overrides)
        return make_chat_model(ProviderConfig(**fields))  # type: ignore[arg-type]

    return build
