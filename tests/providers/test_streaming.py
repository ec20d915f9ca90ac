"""Real ``ChatOpenAI`` streams over HTTP from the fake server: content, tool calls, usage."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from langchain_core.messages import AIMessageChunk, HumanMessage, SystemMessage
from langchain_core.tools import tool
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from pydantic import SecretStr

from agents.errors import ProviderNetworkError
from agents.providers import ChatModelHandle, ProviderConfig, alist_models, make_chat_model
from agents.providers.openai_chunks import DictChunkAsyncOpenAI
from tests.providers.conftest import TEST_KEY
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

DEAD_PROXY = "http://127.0.0.1:9"


async def collect(handle: ChatModelHandle, messages: object) -> list[AIMessageChunk]:
    return [chunk async for chunk in handle.model.astream(messages)]  # type: ignore[arg-type]


async def collect_in_lockstep(
    fake: FakeOpenAI, handle: ChatModelHandle, messages: object
) -> list[AIMessageChunk]:
    """The chunks of a ``lockstep`` reply: the server sends each event only once the one
    before it came out as a chunk, so this hangs if the client waits for more first."""
    chunks: list[AIMessageChunk] = []
    async for chunk in handle.model.astream(messages):  # type: ignore[arg-type]
        chunks.append(chunk)
        fake.step()
    return chunks


@tool
def read_file(path: str, start_line: int = 1) -> str:
    """Read a file of the project, with line numbers."""
    return path


async def test_content_streams_as_the_deltas_the_server_sent(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    deltas = ["The ", "tree ", "has ", "three ", "branches."]
    fake_openai.script(Reply(deltas=deltas, lockstep=True))
    handle = fake_model()

    messages = [SystemMessage("Be brief."), HumanMessage("How many?")]
    chunks = await collect_in_lockstep(fake_openai, handle, messages)

    texts = [chunk.content for chunk in chunks if chunk.content]
    assert texts == ["The ", "tree ", "has ", "three ", "branches."]
    body = fake_openai.last_body
    assert body["model"] == "fake-model"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "How many?"},
    ]
    assert fake_openai.chat_requests[-1].headers["authorization"] == f"Bearer {TEST_KEY}"


async def test_usage_arrives_as_its_own_chunk(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply("Counted reply.", usage=(42, 7)))

    chunks = await collect(fake_model(), "count me")

    usage = [chunk.usage_metadata for chunk in chunks if chunk.usage_metadata]
    assert len(usage) == 1
    assert usage[0]["input_tokens"] == 42
    assert usage[0]["output_tokens"] == 7
    assert usage[0]["total_tokens"] == 49


async def test_streamed_tool_calls_are_assembled_from_split_arguments(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    calls = [
        ToolCall(
            "read_file",
            {"path": "agents/providers/__init__.py", "start_line": 10},
            argument_chunks=5,
        ),
        ToolCall("read_file", {"path": "README.md"}, id="call_readme"),
    ]
    fake_openai.script(Reply("Let me look.", tool_calls=calls, lockstep=True))
    handle = fake_model()
    bound = handle.model.bind_tools([read_file])

    merged: AIMessageChunk | None = None
    argument_pieces = 0
    async for chunk in bound.astream("What is in providers.py?"):
        assert isinstance(chunk, AIMessageChunk)
        argument_pieces += sum(1 for part in chunk.tool_call_chunks if part.get("args"))
        merged = chunk if merged is None else merged + chunk
        fake_openai.step()

    assert merged is not None
    assert merged.content == "Let me look."
    assert argument_pieces >= 6
    assert [(c["name"], c["args"]) for c in merged.tool_calls] == [
        ("read_file", {"path": "agents/providers/__init__.py", "start_line": 10}),
        ("read_file", {"path": "README.md"}),
    ]
    assert merged.tool_calls[1]["id"] == "call_readme"
    assert merged.response_metadata.get("finish_reason") == "tool_calls"
    sent_tools = fake_openai.last_body["tools"]
    assert sent_tools[0]["function"]["name"] == "read_file"
    assert set(sent_tools[0]["function"]["parameters"]["properties"]) == {"path", "start_line"}


def test_sync_invoke_works_against_the_threaded_server(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply("Synchronous answer."))

    message = fake_model().model.invoke("hello")

    assert message.content == "Synchronous answer."


async def test_unscripted_requests_get_an_echo_of_the_user(
    fake_model: Callable[..., ChatModelHandle],
) -> None:
    chunks = await collect(fake_model(), "ping 123")

    assert "".join(str(chunk.content) for chunk in chunks) == "You said: ping 123"


async def test_proxy_variables_are_ignored(
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.setenv(name, DEAD_PROXY)
        monkeypatch.setenv(name.lower(), DEAD_PROXY)
    fake_openai.script(Reply("Straight through."), Reply("Sync too."))
    handle = fake_model()

    async_text = "".join(str(chunk.content) for chunk in await collect(handle, "hi"))
    sync_text = handle.model.invoke("hi").content

    assert (async_text, sync_text) == ("Straight through.", "Sync too.")
    assert len(fake_openai.chat_requests) == 2
    # The control: a client that trusts the environment goes to the dead proxy instead.
    async with httpx.AsyncClient(trust_env=True, timeout=2) as trusting:
        with pytest.raises(httpx.HTTPError):
            await trusting.get(f"{fake_openai.base_url}/models")
    assert len(fake_openai.requests) == 2


async def test_model_list_comes_from_the_server(fake_openai: FakeOpenAI) -> None:
    config = ProviderConfig(
        provider="openai-compatible", base_url=fake_openai.base_url, api_key=SecretStr(TEST_KEY)
    )

    assert await alist_models(config) == ["fake-model", "fake-model-large"]
    assert fake_openai.requests[-1].path == "/v1/models"


async def test_model_list_from_a_dead_server_is_a_network_error(fake_openai: FakeOpenAI) -> None:
    port = fake_openai.port
    fake_openai.stop()
    config = ProviderConfig(provider="ollama", base_url=f"http://127.0.0.1:{port}/v1", timeout=2)

    with pytest.raises(ProviderNetworkError) as caught:
        await alist_models(config)

    assert f"127.0.0.1:{port}" in caught.value.user_message


def test_a_long_markdown_reply_streams_whole(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    from tests.support.fake_openai import markdown_tokens

    tokens = markdown_tokens(2000)
    fake_openai.script(Reply.from_tokens(tokens))

    text = "".join(str(chunk.content) for chunk in fake_model().model.stream("long"))

    assert text == "".join(tokens)
    assert "```python" in text
    assert "## Section" in text


def test_make_chat_model_offline_needs_no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", DEAD_PROXY)

    handle = make_chat_model(ProviderConfig())

    assert handle.provider == "offline"


async def test_streamed_chunks_reach_langchain_without_the_sdks_typed_construction(
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import openai._base_client as base_client

    built: list[object] = []
    real = base_client.construct_type  # type: ignore[attr-defined]

    def counting(*, type_: object, value: object) -> object:
        built.append(type_)
        return real(type_=type_, value=value)

    monkeypatch.setattr(base_client, "construct_type", counting)
    fake_openai.script(Reply(deltas=["Fast ", "and ", "exact."], usage=(5, 3)))

    chunks = await collect(fake_model(), "go")

    assert "".join(str(chunk.content) for chunk in chunks) == "Fast and exact."
    assert [c.usage_metadata["total_tokens"] for c in chunks if c.usage_metadata] == [8]
    assert ChatCompletionChunk not in built


def test_a_chunk_choice_without_a_delta_gets_an_empty_one_and_other_types_stay_typed() -> None:
    client = DictChunkAsyncOpenAI(api_key="x", base_url="http://127.0.0.1:9", max_retries=0)
    chunk = client._process_response_data(
        data={"id": "c", "choices": [{"index": 0, "finish_reason": "stop"}]},
        cast_to=ChatCompletionChunk,
        response=None,
    )
    assert chunk == {"id": "c", "choices": [{"index": 0, "finish_reason": "stop", "delta": {}}]}
    completion = client._process_response_data(
        data={
            "id": "c",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "hi"},
                }
            ],
        },
        cast_to=ChatCompletion,
        response=None,
    )
    assert isinstance(completion, ChatCompletion)
    assert completion.choices[0].message.content == "hi"
