"""How fast a running turn stops: ``cancel.set()`` to ``RunFinished(cancelled)``.

Two situations, median of 5 each, against the local fake OpenAI-compatible server: (1)
mid-stream, a token every 5 ms; (2) while the provider is silent (its first byte 30 s away).
Baseline from the same run: cancelling a bare ``ChatOpenAI.astream`` task in the same
situation (the floor; the runtime adds closing the graph task and writing the cancelled
reply). Target: <= 200 ms. Run: ``python benchmarks/bench_cancel_latency.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from langchain_core.messages import HumanMessage  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model  # noqa: E402
from agents.runtime.agent_runtime import AgentRuntime  # noqa: E402
from agents.runtime.events import RunFinished, TokenDelta  # noqa: E402
from storage.sqlite_store import SqliteConversationStore  # noqa: E402
from tests.support.fake_openai import FakeOpenAI, Reply  # noqa: E402

RUNS = 5
TARGET_MS = 200.0
SILENCE_BEFORE_CANCEL_S = 0.3


def streaming_reply() -> Reply:
    return Reply(deltas=[f"w{i} " for i in range(5000)], token_delay=0.005)


def silent_reply() -> Reply:
    return Reply.slow_first_byte(30.0)


async def cancel_turn(
    runtime: AgentRuntime, store: Any, handle: ChatModelHandle, streaming: bool
) -> float:
    """Milliseconds from setting ``cancel`` to the turn's ``RunFinished(cancelled)``."""
    conversation = store.create_conversation("ide-helper", "bench")
    user = store.add_message(conversation.id, "user", "go", None)
    cancel = asyncio.Event()
    asked: list[float] = []

    def request_cancel() -> None:
        asked.append(time.perf_counter())
        cancel.set()

    if not streaming:
        asyncio.get_running_loop().call_later(SILENCE_BEFORE_CANCEL_S, request_cancel)
    tokens = 0
    async for event in runtime.run_turn(
        conversation_id=conversation.id, user_message_id=user.id, model=handle, cancel=cancel
    ):
        if isinstance(event, TokenDelta):
            tokens += 1
            if streaming and tokens == 20:
                request_cancel()
        elif isinstance(event, RunFinished):
            if event.status != "cancelled":
                raise SystemExit(f"the turn was not cancelled: {event}")
            return (time.perf_counter() - asked[0]) * 1000
    raise SystemExit("the turn ended without RunFinished")


async def cancel_bare_stream(handle: ChatModelHandle, streaming: bool) -> float:
    """Milliseconds from ``task.cancel()`` to the end of a bare ``astream`` task."""
    first = asyncio.Event()

    async def consume() -> None:
        async for _chunk in handle.model.astream([HumanMessage("go")]):
            first.set()

    task = asyncio.create_task(consume())
    if streaming:
        await first.wait()
        await asyncio.sleep(0.1)
    else:
        await asyncio.sleep(SILENCE_BEFORE_CANCEL_S)
    asked = time.perf_counter()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return (time.perf_counter() - asked) * 1000


async def main(runs: int = RUNS) -> dict[str, float]:
    """Print the figures; return the runtime's median per situation (ms)."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    situations: list[tuple[str, Callable[[], Reply], bool]] = [
        ("mid-stream", streaming_reply, True),
        ("silent provider", silent_reply, False),
    ]
    results: dict[str, float] = {}
    print(f"cancel latency, median of {runs}:")
    with FakeOpenAI(default=None) as server, tempfile.TemporaryDirectory() as tmp:
        handle = make_chat_model(
            ProviderConfig(
                provider="openai-compatible",
                model="fake-model",
                base_url=server.base_url,
                api_key=SecretStr("bench"),
                timeout=60,
            )
        )
        store = SqliteConversationStore(Path(tmp) / "weaver.db")
        async with AsyncSqliteSaver.from_conn_string(str(Path(tmp) / "cp.db")) as saver:
            runtime = AgentRuntime(store, saver)
            for label, make_reply, streaming in situations:
                bare, full = [], []
                for _ in range(runs):
                    server.script(make_reply())
                    bare.append(await cancel_bare_stream(handle, streaming))
                    server.script(make_reply())
                    full.append(await cancel_turn(runtime, store, handle, streaming))
                results[label] = median = statistics.median(full)
                verdict = "meets" if median <= TARGET_MS else "MISSES"
                print(
                    f"  {label:<16} runtime {median:6.1f} ms   bare astream task "
                    f"{statistics.median(bare):6.1f} ms   (target <= {TARGET_MS:.0f} ms: {verdict})"
                )
        store.close()
    return results


if __name__ == "__main__":
    asyncio.run(main())
