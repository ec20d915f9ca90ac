"""Any configured base URL reaches the provider as configured, the request path appended once
(:mod:`agents.providers.base_url`): generated URLs (path prefixes, trailing slashes, queries
such as Azure's ``api-version``, fragments, userinfo, ports) against the local server, which
records each request line, through every client the app builds (the model's sync and async
calls, the model list, the served context window, the model named by the server)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from agents.providers import ProviderConfig, alist_models, make_chat_model, resolve_provider
from agents.providers.base_url import endpoint_url, normalized, split
from tests.support.fake_openai import FakeOpenAI, Reply

_HTTP = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_SEGMENT = st.text(alphabet="abcXYZ019-._~", min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..")  # dot segments: resolved by every HTTP client (RFC 3986)
) | st.sampled_from(["openai", "deployments", "v1", "api%20x", "a%2Fb", "@at", "c:d"])
_QUERY_PART = st.text(alphabet="abcXYZ019-._~", max_size=6) | st.sampled_from(
    ["2024-10-21", "x%2Fy", "a+b", "%26", ""]
)


@st.composite
def base_urls(draw: st.DrawFn, host: str) -> tuple[str, str, str]:
    """``(configured URL, its path prefix, its query)``: the URL a user may write."""
    prefix = "".join("/" + s for s in draw(st.lists(_SEGMENT, max_size=4)))
    slashes = "/" * draw(st.integers(0, 3))
    pairs = draw(st.lists(st.tuples(_QUERY_PART, _QUERY_PART), max_size=3))
    query = "&".join(f"{k}={v}" if draw(st.booleans()) or v else k for k, v in pairs if k)
    fragment = draw(st.sampled_from(["", "#", "#frag", "#a?b=c"]))
    userinfo = draw(st.sampled_from(["", "user:pass@", "only@"]))
    url = f"http://{userinfo}{host}{prefix}{slashes}{'?' + query if query else ''}{fragment}"
    return url, prefix, query


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as running:
        yield running


def _config(url: str, model: str = "fake-model") -> ProviderConfig:
    return ProviderConfig(
        provider="openai-compatible", base_url=url, api_key=SecretStr("sk-t"), model=model
    )


def _wanted(prefix: str, path: str, query: str) -> str:
    return f"{prefix}/{path}" + (f"?{query}" if query else "")


@_HTTP
@given(data=st.data(), how=st.sampled_from(["invoke", "ainvoke", "astream", "stream"]))
def test_a_chat_request_reaches_the_configured_url_with_its_path_appended_once(
    server: FakeOpenAI, data: st.DataObject, how: str
) -> None:
    url, prefix, query = data.draw(base_urls(f"127.0.0.1:{server.port}"))
    server.reset()
    server.script(Reply(content="hello"))
    handle = make_chat_model(_config(url))

    async def run() -> None:
        try:
            if how == "ainvoke":
                await handle.model.ainvoke("hi")
            else:
                async for _ in handle.model.astream("hi"):
                    pass
        finally:
            await handle.http_async_client.aclose()

    if how == "invoke":
        handle.model.invoke("hi")
    elif how == "stream":
        list(handle.model.stream("hi"))
    else:
        asyncio.run(run())
    assert [r.path for r in server.chat_requests] == [_wanted(prefix, "chat/completions", query)]


@_HTTP
@given(data=st.data())
def test_the_model_list_and_window_reach_the_configured_url(
    server: FakeOpenAI, data: st.DataObject
) -> None:
    url, prefix, query = data.draw(base_urls(f"127.0.0.1:{server.port}"))
    server.reset()
    handle = make_chat_model(_config(url))

    async def run() -> None:
        try:
            assert await alist_models(_config(url)) == sorted(server.models)
            await handle.served_context_window()
        finally:
            await handle.http_async_client.aclose()

    asyncio.run(run())
    wanted = _wanted(prefix, "models", query)
    assert [r.path for r in server.requests] == [wanted, wanted]


def test_a_model_named_by_the_server_is_asked_at_the_configured_url() -> None:
    with FakeOpenAI(models=["only-model"]) as server:
        url = f"http://127.0.0.1:{server.port}/openai/deployments/d?api-version=2024-10-21"
        config = ProviderConfig(provider="vllm", base_url=url, api_key=SecretStr("sk-t"))
        handle = make_chat_model(config)
        assert handle.model_name == "only-model"
        assert [r.path for r in server.requests] == [
            "/openai/deployments/d/models?api-version=2024-10-21"
        ]


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    host=st.sampled_from(["[::1]", "[::1]:8080", "[fe80::1%25eth0]:1", "h.example:443", "h"]),
    path=st.sampled_from(["chat/completions", "models", "/models"]),
)
def test_any_base_url_keeps_its_parts_and_gets_the_path_once(
    data: st.DataObject, host: str, path: str
) -> None:
    """The pure rule, for hosts no local server answers on (IPv6, names, default ports)."""
    url, prefix, query = data.draw(base_urls(host))
    built = urlsplit(endpoint_url(url, path))
    given_parts = urlsplit(url)
    assert (built.scheme, built.netloc) == (given_parts.scheme, given_parts.netloc)
    assert built.path == f"{prefix}/{path.lstrip('/')}"
    assert built.query == query
    assert not built.fragment
    assert split(normalized(url)) == split(url)  # normalizing twice changes nothing
    resolved = resolve_provider(_config(url))
    assert resolved.base_url == normalized(url)
