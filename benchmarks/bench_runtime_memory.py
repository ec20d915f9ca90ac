"""Peak memory of one 20,000-token reply: the runtime vs ``ChatOpenAI.astream`` alone.

Each measurement runs in a fresh Python process (so one run's garbage never hides the next
run's peak): it imports the stack and compiles the graph, then reads the long reply and
reports

  * peak RSS of the process (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), measured in a
    process without tracemalloc;
  * the tracemalloc peak *during* the reply (started just before it), in a second process.

Three readers of the same stream from the local fake OpenAI-compatible server:

  (b)  ``ChatOpenAI.astream`` alone, counting the chunks               (the baseline)
  (c0) ``AgentRuntime.run_turn`` with the agent node on plain ``ainvoke`` (the old node, which
       keeps every streamed chunk object until the reply ends)
  (c)  ``AgentRuntime.run_turn`` as shipped: chunks folded as they arrive (the figure)

(c) and (c0) use the checkpointer and the SQLite store. Median of 5 fresh processes each.
Target: the app stays < 150 MiB after the reply, so the runtime alone must stay well below
(c0) and (b), which hold ~47 MiB of chunk objects at their peak. Run:
``python benchmarks/bench_runtime_memory.py [--tokens N] [--runs N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RUNS = 5
READERS = {
    "astream": "(b) ChatOpenAI.astream",
    "run_turn_ainvoke": "(c0) run_turn, ainvoke node",
    "run_turn": "(c) run_turn",
}
MIB = 1024 * 1024


async def _measure(base_url: str, reader: str, traced: bool) -> dict[str, float]:
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from pydantic import SecretStr

    from agents.providers import ProviderConfig, make_chat_model
    from agents.runtime.agent_runtime import AgentRuntime
    from agents.runtime.events import RunError, TokenDelta
    from storage.sqlite_store import SqliteConversationStore

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
        async with AsyncSqliteSaver.from_conn_string(str(Path(tmp) / "checkpoints.db")) as saver:
            runtime = AgentRuntime(store, saver)

            if reader == "run_turn_ainvoke":  # the agent node as it was: plain ``ainvoke``
                import agents.graph.agent_node as agent_node

                async def plain_ainvoke(model: Any, messages: Any, config: Any) -> Any:
                    return await model.ainvoke(messages, config)

                agent_node.call_model_folded = plain_ainvoke  # type: ignore[attr-defined,assignment]

            async def one_turn(text: str) -> int:
                if reader == "astream":
                    n = 0
                    async for chunk in handle.model.astream([HumanMessage(text)]):
                        n += bool(chunk.content)
                    return n
                conversation = store.create_conversation("ide-helper", "bench")
                user = store.add_message(conversation.id, "user", text, None)
                n = 0
                async for event in runtime.run_turn(
                    conversation_id=conversation.id, user_message_id=user.id, model=handle
                ):
                    if isinstance(event, TokenDelta):
                        n += 1
                    elif isinstance(event, RunError):
                        raise SystemExit(f"runtime failed: {event.error}")
                return n

            from agents.profile_registry import get_profile

            runtime.graph_for(get_profile("ide-helper"))  # compile before measuring
            rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            if traced:
                tracemalloc.start()
            pieces = await one_turn("go")
            traced_peak = tracemalloc.get_traced_memory()[1] if traced else 0
            if traced:
                tracemalloc.stop()
        store.close()
    return {
        "pieces": pieces,
        "rss_before": rss_before / MIB,
        "rss_peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / MIB,
        "traced_peak": traced_peak / MIB,
    }


def _child(args: argparse.Namespace) -> None:
    result = asyncio.run(_measure(args.base_url, args.reader, args.traced))
    print(json.dumps(result))


def _run_child(base_url: str, reader: str, traced: bool) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", "--base-url", base_url, "--reader", reader]
    if traced:
        command.append("--traced")
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"measurement failed: {out.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(tokens: int, runs: int = RUNS) -> dict[str, dict[str, float]]:
    """Measure both readers; print the figures; return the medians per reader."""
    from benchmarks.bench_stream_runtime import start_server

    server, base_url = start_server(tokens)
    medians: dict[str, dict[str, float]] = {}
    try:
        for reader in READERS:
            rss = [_run_child(base_url, reader, False) for _ in range(runs)]
            traced = [_run_child(base_url, reader, True) for _ in range(runs)]
            medians[reader] = {
                "pieces": rss[-1]["pieces"],
                "rss_before": statistics.median(r["rss_before"] for r in rss),
                "rss_peak": statistics.median(r["rss_peak"] for r in rss),
                "traced_peak": statistics.median(r["traced_peak"] for r in traced),
            }
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{tokens:,}-token reply, median of {runs} fresh processes:")
    for reader, label in READERS.items():
        m = medians[reader]
        print(
            f"  {label:29} peak RSS {m['rss_peak']:6.1f} MiB (before reply {m['rss_before']:6.1f})"
            f"  tracemalloc peak {m['traced_peak']:6.1f} MiB  ({int(m['pieces']):,} pieces)"
        )
    b, c0, c = medians["astream"], medians["run_turn_ainvoke"], medians["run_turn"]
    print(
        f"  (c) vs (b): peak RSS {c['rss_peak'] - b['rss_peak']:+.1f} MiB, "
        f"tracemalloc peak {c['traced_peak'] / max(b['traced_peak'], 0.01):.2f}x;"
        f" (c) vs (c0): peak RSS {c['rss_peak'] - c0['rss_peak']:+.1f} MiB, "
        f"tracemalloc peak {c['traced_peak'] / max(c0['traced_peak'], 0.01):.2f}x"
    )
    return medians


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--reader", choices=tuple(READERS), help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.child:
        _child(parsed)
    else:
        main(parsed.tokens, parsed.runs)
