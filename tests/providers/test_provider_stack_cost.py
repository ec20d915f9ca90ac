"""What building a network model costs stays small: one SSL context for the model's clients
and the model's own client reused for the server's model list. (No aiohttp transport imported
by the SDK: ``tests/cli/test_no_textual.py``, in the fresh process that also checks Textual.)"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_openai import ChatOpenAI

import agents.providers as providers
from agents.providers import ChatModelHandle
from tests.support.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]


def _counted_bundle_loads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every certificate bundle loaded from now on (as in a fresh process: none cached)."""
    providers._ssl_context.cache_clear()
    loads: list[object] = []
    load = ssl.SSLContext.load_verify_locations

    def counted(self: ssl.SSLContext, *args: Any, **kwargs: Any) -> None:
        loads.append(self)
        load(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    return loads


def test_the_models_of_a_process_load_the_certificate_bundle_once(
    fake_model: Callable[..., ChatModelHandle], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_model()  # the SDK and langchain-openai imported (their import makes a context too)
    loads = _counted_bundle_loads(monkeypatch)
    handle = fake_model(base_url="https://127.0.0.1:9/v1")
    assert len(loads) == 1  # the sync and the async client share one context
    assert isinstance(handle.model, ChatOpenAI)
    assert handle.http_async_client is handle.model.http_async_client
    fake_model(model="fake-model-large", base_url="https://127.0.0.1:9/v1")  # a switch
    assert len(loads) == 1


def test_a_plain_http_server_costs_no_certificate_bundle_and_trusts_no_certificate(
    fake_model: Callable[..., ChatModelHandle], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_model()
    loads = _counted_bundle_loads(monkeypatch)
    fake_model(base_url="http://127.0.0.1:9/v1")
    assert loads == []
    context = providers._no_tls_context()
    # a redirect to https:// meets a context that verifies but trusts no authority
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0


async def test_the_served_context_window_comes_over_the_models_own_connection(
    fake_model: Callable[..., ChatModelHandle], fake_openai: FakeOpenAI
) -> None:
    fake_openai.model_info["fake-model"] = {"max_model_len": 8192}
    fake_openai.script("hello")
    handle = fake_model()
    async for _ in handle.model.astream("hi"):
        pass
    assert await handle.served_context_window() == 8192
    chat, models = fake_openai.requests[-2:]
    assert chat.path.endswith("/chat/completions")
    assert models.path.endswith("/models")
    assert models.peer == chat.peer  # the same client, the same kept-alive connection
    assert models.headers["authorization"] == "Bearer sk-test-DO-NOT-LEAK-1234567890"
    await handle.http_async_client.aclose()


async def test_an_unreachable_server_leaves_the_window_unknown(
    fake_model: Callable[..., ChatModelHandle],
) -> None:
    handle = fake_model(base_url="http://127.0.0.1:9/v1")
    assert await handle.served_context_window() is None
