"""A 20,000-token reply through the runtime vs ``ChatOpenAI.astream`` vs raw httpx.

The local fake OpenAI-compatible server runs in its own process and streams the reply as fast
as the socket takes it. Three readers of the same stream, median of 5 runs each:

  (a) raw httpx reading the SSE lines and decoding each chunk's JSON   (the floor)
  (b) ``ChatOpenAI.astream`` alone                                      (the baseline)
  (c) ``AgentRuntime.run_turn``: the compiled graph, the checkpointer, the event mapping and
      the reply flushed to SQLite every 100 ms                          (the figure)

Target: (c) <= 1.5 x (b). Run: ``python benchmarks/bench_stream_runtime.py [--tokens N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from langchain_core.messages import HumanMessage  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model  # noqa: E402
from agents.runtime.agent_runtime import AgentRuntime  # noqa: E402
from agents.runtime.events import RunFinished, TokenDelta  # noqa: E402
from storage.sqlite_store import SqliteConversationStore  # noqa: E402

RUNS = 5
TARGET = 1.5


def start_server(tokens: int) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.fake_openai", "--tokens", str(tokens)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    base_url = process.stdout.readline().strip()
    if not base_url.startswith("http"):
        process.kill()
        raise SystemExit("the fake OpenAI server did not start")
    return process, base_url


async def raw_httpx(base_url: str) -> int:
    body = {"model": "fake-model", "stream": True, "messages": [{"role": "user", "content": "go"}]}
    pieces = 0
    async with (
        httpx.AsyncClient(trust_env=False, timeout=60) as client,
        client.stream("POST", f"{base_url}/chat/completions", json=body) as response,
    ):
        async for line in response.aiter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            choices = json.loads(line[6:]).get("choices") or []
            if choices:
                pieces += len(choices[0]["delta"].get("content") or "")
    return pieces


async def chat_openai_alone(handle: ChatModelHandle) -> int:
    pieces = 0
    async for chunk in handle.model.astream([HumanMessage("go")]):
        pieces += len(str(chunk.content))
    return pieces


async def through_runtime(
    runtime: AgentRuntime, store: SqliteConversationStore, handle: ChatModelHandle
) -> int:
    conversation = store.create_conversation("ide-helper", "bench")
    user = store.add_message(conversation.id, "user", "go", None)
    pieces = 0
    async for event in runtime.run_turn(
        conversation_id=conversation.id, user_message_id=user.id, model=handle
    ):
        if isinstance(event, TokenDelta):
            pieces += len(event.text)
        elif not isinstance(event, RunFinished) and type(event).__name__ == "RunError":
            raise SystemExit(f"runtime failed: {event}")
    return pieces


async def median_of(runs: int, func: Callable[[], Awaitable[int]]) -> tuple[float, int]:
    await func()  # warm-up: imports, connections, graph compile
    times, count = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        count = await func()
        times.append(time.perf_counter() - started)
    return statistics.median(times), count


async def main(tokens: int, runs: int = RUNS) -> float:
    """Run the three readers; print the figures; return the ratio (c)/(b)."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    server, base_url = start_server(tokens)
    try:
        handle = make_chat_model(
            ProviderConfig(
                provider="openai-compatible",
                model="fake-model",
                base_url=base_url,
                api_key=SecretStr("bench"),
                timeout=120,
            )
        )
        with tempfile.TemporaryDirectory() as tmp:
            store = SqliteConversationStore(Path(tmp) / "weaver.db")
            async with AsyncSqliteSaver.from_conn_string(
                str(Path(tmp) / "checkpoints.db")
            ) as saver:
                runtime = AgentRuntime(store, saver)
                raw, n_raw = await median_of(runs, lambda: raw_httpx(base_url))
                alone, n_alone = await median_of(runs, lambda: chat_openai_alone(handle))
                full, n_full = await median_of(
                    RUNS, lambda: through_runtime(runtime, store, handle)
                )
            store.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{tokens:,}-token reply, median of {runs}:")
    if not n_raw == n_alone == n_full:
        raise SystemExit(f"the readers got different replies: {n_raw}, {n_alone}, {n_full} chars")
    print(f"  (a) raw httpx SSE            {raw:7.3f} s  ({n_raw:,} characters)")
    print(f"  (b) ChatOpenAI.astream       {alone:7.3f} s  ({n_alone:,} characters)")
    print(f"  (c) AgentRuntime.run_turn    {full:7.3f} s  ({n_full:,} characters, stored)")
    ratio = full / alone
    verdict = "meets" if ratio <= TARGET else "MISSES"
    print(
        f"  ratio (c)/(b) = {ratio:.2f}x  (target <= {TARGET}x: {verdict}); (c)/(a) = {full / raw:.1f}x"
    )
    return ratio


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=20_000)
    asyncio.run(main(parser.parse_args().tokens))
