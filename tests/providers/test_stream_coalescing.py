"""A fast server's events that arrive together come out of the model as few chunks, saying
what the events said; a slow server's come out one by one, none held back (see
``tests/providers/test_streaming.py`` for the lockstep tests)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from langchain_core.messages import AIMessageChunk

from agents.providers import ChatModelHandle
from agents.providers.coalesced_stream import CoalescedChunkStream
from agents.providers.thinking import REASONING_KEY
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

WORDS = [f"word{i} " for i in range(200)]
BOUND_S = 30.0
"""Upper bound of a wait for a condition (against a hang, not a timing check)."""


async def chunks_of(handle: ChatModelHandle, model: object = None) -> list[AIMessageChunk]:
    runnable = model if model is not None else handle.model
    return [chunk async for chunk in runnable.astream("go")]  # type: ignore[attr-defined]


def merged(chunks: list[AIMessageChunk]) -> AIMessageChunk:
    whole = chunks[0]
    for chunk in chunks[1:]:
        whole = whole + chunk
    return whole


async def test_deltas_that_arrive_together_come_out_as_few_chunks(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply(deltas=WORDS, usage=(9, 200)))  # one write of every event

    chunks = await chunks_of(fake_model())

    with_text = [chunk for chunk in chunks if chunk.content]
    assert len(with_text) <= len(WORDS) // 10
    assert "".join(str(chunk.content) for chunk in with_text) == "".join(WORDS)
    usage = [chunk.usage_metadata for chunk in chunks if chunk.usage_metadata]
    assert len(usage) == 1
    assert usage[0]["output_tokens"] == 200
    assert merged(chunks).response_metadata.get("finish_reason") == "stop"


async def test_merged_reasoning_stays_apart_from_the_answer(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    thoughts = [f"step {i}, " for i in range(50)]
    fake_openai.script(Reply(reasoning=thoughts, deltas=WORDS))

    chunks = await chunks_of(fake_model())

    assert len(chunks) < len(thoughts) + len(WORDS)
    whole = merged(chunks)
    assert whole.additional_kwargs[REASONING_KEY] == "".join(thoughts)
    assert whole.content == "".join(WORDS)


async def test_merged_tool_calls_keep_each_call_whole(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    calls = [
        ToolCall("read_file", {"path": "a.py", "note": "x" * 300}, argument_chunks=40),
        ToolCall("list_files", {"glob": "*.md"}, id="call_list", argument_chunks=5),
    ]
    fake_openai.script(Reply("Looking.", tool_calls=calls))
    handle = fake_model()

    chunks = await chunks_of(handle)

    assert len(chunks) < 20
    whole = merged(chunks)
    assert whole.content == "Looking."
    assert [(c["name"], c["args"]) for c in whole.tool_calls] == [
        ("read_file", {"path": "a.py", "note": "x" * 300}),
        ("list_files", {"glob": "*.md"}),
    ]
    assert whole.tool_calls[1]["id"] == "call_list"
    assert not whole.invalid_tool_calls


async def test_a_name_repeated_in_every_merged_chunk_is_kept_once(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    call = ToolCall(
        "read_file", {"path": "src/app.py"}, id="call_nim", argument_chunks=30,
        name_in_every_chunk=True,
    )  # fmt: skip
    fake_openai.script(Reply(tool_calls=[call]))

    chunks = await chunks_of(fake_model())

    assert len(chunks) < 10
    whole = merged(chunks)
    assert [(c["name"], c["args"], c["id"]) for c in whole.tool_calls] == [
        ("read_file", {"path": "src/app.py"}, "call_nim")
    ]


async def test_an_error_event_comes_after_the_text_that_arrived_with_it(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply(deltas=WORDS, stream_error_after=101))
    received: list[str] = []

    failure: Exception | None = None
    try:
        async for chunk in fake_model().model.astream("go"):
            received.append(str(chunk.content))
    except Exception as exc:  # noqa: BLE001 (the SDK's error, whatever its class)
        failure = exc

    assert failure is not None
    assert "The stream failed upstream." in str(failure)
    assert "".join(received) == "".join(WORDS[:100])


async def test_leaving_a_stream_early_leaves_no_reading_task_behind(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply(deltas=WORDS, lockstep=True))
    before = asyncio.all_tasks()

    stream = fake_model().model.astream("go")
    async for chunk in stream:
        if chunk.content:
            break
        fake_openai.step()
    await stream.aclose()  # type: ignore[attr-defined]
    del stream  # the SDK's stream is closed when collected, as it always was

    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND_S
    while loop.time() < deadline:
        if not asyncio.all_tasks() - before:
            break
        await asyncio.sleep(0)
    assert asyncio.all_tasks() - before == set()


async def test_an_sdk_without_the_stream_internals_keeps_its_own_stream(
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An SDK laid out otherwise gets no merged stream: one chunk per event, the same text."""
    monkeypatch.setattr(CoalescedChunkStream, "usable", False)
    fake_openai.script(Reply(deltas=WORDS, usage=(9, 200)))

    chunks = await chunks_of(fake_model())

    with_text = [chunk for chunk in chunks if chunk.content]
    assert len(with_text) == len(WORDS)
    assert merged(chunks).content == "".join(WORDS)
