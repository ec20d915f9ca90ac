"""The full path of a shared space: a message sent at Alex's seat to the mediator's delivery
shown at Sam's seat.

The host is the real ``weaver-tui space open`` process (its seat runner answers the seats'
messages on the model). This process plays both seats as a seat's app does: Alex's Enter is
:meth:`storage.seats.SeatBook.enqueue` (a message said to everyone), and Sam's seat waits on the
change signal (:class:`storage.change_signal.StoreChanges`) and reads its view through the
store's viewer filter (:func:`agents.shared_space.seat_view.seat_lines`). Per message: enqueue
to the delivery carrying its words seen at Sam's seat; the next message is sent once the
host's turn has ended (the queue is empty), so each figure is one whole round.

The model is the offline demo (it posts what was said to everyone), or with ``--paced`` a
real ``ChatOpenAI`` client on the local OpenAI-compatible test server, which streams
``--think`` tokens ``--token-delay`` apart before it calls ``post_to_shared``. Target: under
1 s (p95). Run: ``python benchmarks/bench_seat_roundtrip.py [--paced] [--messages 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.shared_space.seat_view import seat_lines  # noqa: E402
from agents.shared_space.space import new_space  # noqa: E402
from storage.change_signal import StoreChanges  # noqa: E402
from storage.seats import SeatBook  # noqa: E402
from storage.sqlite_store import SqliteConversationStore  # noqa: E402

TARGET_S = 1.0
HOST_START_S = 120.0
"""How long the host may take to start (a bound against a hang, not a measurement)."""
ROUND_BOUND_S = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def paced_server(think: int, token_delay: float) -> Iterator[dict[str, str]]:
    """The local test server playing a mediator that thinks aloud, then posts to everyone;
    yields the host's provider variables."""
    from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

    def mediator(body: dict[str, Any]) -> Reply:
        last = body["messages"][-1]
        if last["role"] == "tool":
            return Reply("Posted.", token_delay=token_delay)
        words = str(last["content"])
        thinking = [f"t{n} " for n in range(think)]
        post = ToolCall("post_to_shared", {"content": f"Said to everyone: {words}"})
        return Reply(deltas=thinking, token_delay=token_delay, tool_calls=[post])

    with FakeOpenAI(default=mediator) as server:
        yield {
            "WEAVER_PROVIDER": "openai-compatible",
            "WEAVER_BASE_URL": server.base_url,
            "WEAVER_API_KEY": "sk-bench-not-a-real-key",
            "WEAVER_MODEL": "fake-model",
        }


def host_environment(data_dir: Path, provider: dict[str, str]) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith("WEAVER_")}
    kept.pop("OPENAI_API_KEY", None)
    kept.pop("OPENAI_BASE_URL", None)
    return {
        **kept,
        "PYTHONPATH": str(ROOT),
        "WEAVER_DATA_DIR": str(data_dir),
        "WEAVER_CONFIG": str(data_dir / "no-config.yaml"),
        "WEAVER_PROVIDER": "offline",
        **provider,
    }


async def start_host(
    data_dir: Path, conversation_id: str, env: dict[str, str]
) -> asyncio.subprocess.Process:
    """``weaver-tui space open`` for the space; returns once it printed both links."""
    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "weaver_tui", "space", "open",
        "--conversation", conversation_id, "--port", str(free_port()),
        cwd=data_dir, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert host.stdout is not None
    links = 0
    while links < 2:
        line = await asyncio.wait_for(host.stdout.readline(), HOST_START_S)
        if not line:
            raise SystemExit("the host stopped before it printed the seats' links")
        links += b": http" in line
    return host


async def one_round(
    seats: SeatBook, sam: SqliteConversationStore, changes: StoreChanges, cid: str, n: int
) -> float:
    """Send at Alex's seat; return the seconds until Sam's seat shows the delivery."""
    words = f"message {n} from Alex"
    sent = time.perf_counter()
    seats.enqueue(cid, "Alex", words, shared=True)
    while not any(
        line.kind == "delivered" and words in line.content for line in seat_lines(sam, cid, "Sam")
    ):
        await asyncio.wait_for(changes.wait(), ROUND_BOUND_S)
    seen = time.perf_counter() - sent
    while seats.queued(cid):  # the host's turn ends before the next message
        await asyncio.wait_for(changes.wait(), ROUND_BOUND_S)
    return seen


async def measure(data_dir: Path, cid: str, messages: int, env: dict[str, str]) -> list[float]:
    db = data_dir / "weaver.db"
    host = await start_host(data_dir, cid, env)
    seats, sam, changes = SeatBook(db), SqliteConversationStore(db), StoreChanges(db)
    try:
        return [await one_round(seats, sam, changes, cid, n) for n in range(messages)]
    finally:
        changes.close()
        sam.close()
        seats.close()
        host.send_signal(signal.SIGINT)  # Ctrl+C, as the person running the host stops it
        try:
            await asyncio.wait_for(host.wait(), 30)
        except TimeoutError:
            host.kill()
            await host.wait()


def run(messages: int, provider: dict[str, str]) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        with SqliteConversationStore(data_dir / "weaver.db") as store:
            space = new_space(store, ("Alex", "Sam"))
        env = host_environment(data_dir, provider)
        return asyncio.run(measure(data_dir, space.id, messages, env))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--paced", action="store_true", help="the local server, not offline")
    parser.add_argument("--think", type=int, default=20, help="tokens before the delivery")
    parser.add_argument("--token-delay", type=float, default=0.01)
    args = parser.parse_args(argv)
    if args.paced:
        with paced_server(args.think, args.token_delay) as provider:
            latencies = run(args.messages, provider)
        model = f"paced local server ({args.think} tokens, {args.token_delay * 1000:.0f} ms apart)"
    else:
        latencies = run(args.messages, {})
        model = "offline demo model"
    ordered = sorted(latencies)
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    median = statistics.median(ordered)
    verdict = "PASS" if p95 < TARGET_S else "FAIL"
    print(f"seat to seat through the host's mediator, {model}, {len(ordered)} messages:")
    print(
        f"  median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms; target: p95 < {TARGET_S * 1000:.0f} ms {verdict}"
    )
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    raise SystemExit(main())
