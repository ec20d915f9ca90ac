"""Every preset builds the right client: endpoint, model, key source, no proxy, no retries."""

from __future__ import annotations

import pytest
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from agents.errors import ConfigError, MissingKeyError
from agents.offline import OfflineChatModel
from agents.providers import ProviderConfig, list_presets, make_chat_model, resolve_provider
from agents.providers.presets import PRESETS
from tests.providers.conftest import TEST_KEY

NETWORK_PRESETS = {
    "openai": ("https://api.openai.com/v1", "gpt-4.1-mini", "OPENAI_API_KEY"),
    "moonshot": ("https://api.moonshot.cn/v1", "kimi-k2-turbo-preview", "MOONSHOT_API_KEY"),
    "deepseek": ("https://api.deepseek.com/v1", "deepseek-chat", "DEEPSEEK_API_KEY"),
    "dashscope": (
        "https://dashscope.aliyuncs.com/compatible-mode/v1",
        "qwen-plus",
        "DASHSCOPE_API_KEY",
    ),
}


@pytest.mark.parametrize("name", sorted(NETWORK_PRESETS))
def test_keyed_preset_builds_chat_openai_from_its_own_key_variable(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    base_url, default_model, key_env = NETWORK_PRESETS[name]
    monkeypatch.setenv(key_env, TEST_KEY)

    handle = make_chat_model(ProviderConfig(provider=name, timeout=12.5))

    llm = handle.model
    assert isinstance(llm, ChatOpenAI)
    assert (handle.provider, handle.model_name) == (name, default_model)
    assert handle.label == f"{name} · {default_model}"
    assert llm.model_name == default_model
    assert llm.openai_api_base == base_url
    assert str(llm.root_client.base_url).rstrip("/") == base_url
    assert llm.openai_api_key is not None
    assert isinstance(llm.openai_api_key, SecretStr)
    assert llm.openai_api_key.get_secret_value() == TEST_KEY
    assert llm.streaming is True
    assert llm.stream_usage is True
    assert llm.max_retries == 0
    assert llm.request_timeout == 12.5
    assert llm.http_client is not None
    assert llm.http_async_client is not None
    assert llm.http_client.trust_env is False
    assert llm.http_async_client.trust_env is False
    assert llm.root_client._client is llm.http_client
    assert llm.root_async_client._client is llm.http_async_client


@pytest.mark.parametrize("name", sorted(NETWORK_PRESETS))
def test_keyed_preset_without_a_key_names_the_variable_and_the_config_key(name: str) -> None:
    key_env = NETWORK_PRESETS[name][2]

    with pytest.raises(MissingKeyError) as caught:
        make_chat_model(ProviderConfig(provider=name))

    message = caught.value.user_message
    assert key_env in message
    assert "WEAVER_API_KEY" in message
    assert "api_key in config.yaml" in message
    assert "\n" not in message


def test_configured_key_wins_over_the_preset_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOONSHOT_API_KEY", "sk-from-environment-000000")

    resolved = resolve_provider(ProviderConfig(provider="moonshot", api_key=SecretStr(TEST_KEY)))

    assert resolved.api_key is not None
    assert resolved.api_key.get_secret_value() == TEST_KEY


def test_openai_base_url_variable_is_honoured_below_the_configured_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9999/v1/")

    from_env = resolve_provider(ProviderConfig(provider="openai"))
    configured = resolve_provider(
        ProviderConfig(provider="openai", base_url="http://127.0.0.1:8888/v1")
    )

    assert from_env.base_url == "http://127.0.0.1:9999/v1"
    assert configured.base_url == "http://127.0.0.1:8888/v1"


def test_ollama_needs_no_key_and_talks_to_the_local_port() -> None:
    handle = make_chat_model(ProviderConfig(provider="ollama", model="qwen2.5-coder"))

    llm = handle.model
    assert isinstance(llm, ChatOpenAI)
    assert llm.openai_api_base == "http://127.0.0.1:11434/v1"
    assert handle.model_name == "qwen2.5-coder"
    assert llm.http_async_client is not None
    assert llm.http_async_client.trust_env is False


def test_openai_compatible_takes_any_base_url_and_an_optional_key() -> None:
    handle = make_chat_model(
        ProviderConfig(
            provider="openai-compatible", base_url="http://127.0.0.1:8000/v1", model="served"
        )
    )

    assert isinstance(handle.model, ChatOpenAI)
    assert handle.model.openai_api_base == "http://127.0.0.1:8000/v1"
    assert handle.model_name == "served"  # no model named: see test_model_discovery.py


def test_openai_compatible_without_a_base_url_says_what_to_set() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_provider(ProviderConfig(provider="openai-compatible"))

    assert "WEAVER_BASE_URL" in caught.value.user_message
    assert "base_url in config.yaml" in caught.value.user_message


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_provider(ProviderConfig(provider="kimi-cloud"))

    assert "kimi-cloud" in caught.value.user_message
    assert "moonshot" in caught.value.user_message


def test_auto_with_no_key_anywhere_is_offline() -> None:
    resolved = resolve_provider(ProviderConfig())

    assert (resolved.provider, resolved.model, resolved.api_key) == ("offline", "offline", None)


def test_auto_picks_the_provider_whose_key_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", TEST_KEY)

    resolved = resolve_provider(ProviderConfig(provider="auto"))

    assert resolved.provider == "deepseek"
    assert resolved.base_url == "https://api.deepseek.com/v1"


def test_auto_with_a_base_url_is_an_openai_compatible_server() -> None:
    resolved = resolve_provider(ProviderConfig(base_url="http://127.0.0.1:8000/v1"))

    assert resolved.provider == "openai-compatible"


def test_auto_looks_up_keys_in_the_given_environment_only() -> None:
    resolved = resolve_provider(ProviderConfig(environ={"MOONSHOT_API_KEY": TEST_KEY}))

    assert resolved.provider == "moonshot"
    assert resolved.model == "kimi-k2-turbo-preview"


def test_list_presets_offers_every_provider_for_the_model_picker() -> None:
    presets = {preset.name: preset for preset in list_presets()}

    assert set(presets) == {
        "openai",
        "moonshot",
        "deepseek",
        "dashscope",
        "ollama",
        "vllm",
        "openai-compatible",
        "offline",
    }
    assert presets["moonshot"].default_model == "kimi-k2-turbo-preview"
    assert presets["moonshot"].key_env == "MOONSHOT_API_KEY"
    assert presets["dashscope"].needs_key
    assert not presets["ollama"].needs_key
    assert "deepseek-reasoner" in presets["deepseek"].suggested_models
    assert list(presets)[-1] == "offline"
    for preset in presets.values():
        assert preset.needs_key == (preset.key_env is not None)
        assert not preset.suggested_models or preset.default_model in preset.suggested_models


def test_offline_preset_builds_the_embedded_model() -> None:

    handle = make_chat_model(ProviderConfig(provider="offline"))

    assert isinstance(handle.model, OfflineChatModel)
    assert (handle.provider, handle.model_name, handle.label) == ("offline", "offline", "offline")
    assert handle.is_offline


@pytest.mark.parametrize("name", [*sorted(NETWORK_PRESETS), "openai-compatible", "ollama"])
def test_the_key_never_appears_in_a_repr(name: str) -> None:
    config = ProviderConfig(
        provider=name,
        api_key=SecretStr(TEST_KEY),
        base_url="http://127.0.0.1:8000/v1",
        model="some-model",
    )

    handle = make_chat_model(config)

    for text in (repr(config), repr(resolve_provider(config)), repr(handle), str(handle)):
        assert TEST_KEY not in text
    assert PRESETS[name].name in repr(handle)
