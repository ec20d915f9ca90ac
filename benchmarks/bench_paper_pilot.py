"""paper-pilot's knowledge base and turn overhead, each against a baseline in the same run.

- Indexing 1,000 generated Markdown documents (documents/s) vs a bare FTS5 insert of the same
  text (what the index adds: chunking, hashing, the documents table).
- Query latency p50/p95 over that index vs a bare FTS5 ``MATCH`` of the same words.
- A simple-strategy turn on the offline model, the time spent outside the model (graph, MCP
  calls to the knowledge server, storage), median of runs after a first turn that starts the
  server; baseline: the same turn's model calls alone. Target: < 150 ms.

    .venv/bin/python benchmarks/bench_paper_pilot.py [--documents 1000] [--turns 5] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex, query_terms  # noqa: E402

TURN_TARGET_MS = 150.0
WORDS = ["attention", "adapter", "rank", "gradient", "reward", "policy", "retrieval", "index", "chunk", "token", "latency", "memory", "quantization", "preference", "dataset", "benchmark", "layer", "head", "critic", "plan"]  # fmt: skip


def make_corpus(folder: Path, documents: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for n in range(documents):
        sections = []
        for s in range(3):
            body = " ".join(rng.choice(WORDS) for _ in range(80))
            sections.append(f"## Section {s}\n{body}\n")
        text = f"# Document {n}\n\n" + "\n".join(sections)
        (folder / f"doc{n:05d}.md").write_text(text)
        texts.append(text)
    return texts


def bench_index(tmp: Path, documents: int) -> dict[str, float]:
    folder = tmp / "corpus"
    folder.mkdir()
    texts = make_corpus(folder, documents)
    start = time.perf_counter()
    with KnowledgeIndex(tmp / "index.sqlite") as index:
        index.add_folder(folder, "bench")
    index_s = time.perf_counter() - start
    bare = sqlite3.connect(tmp / "bare.sqlite")
    bare.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='porter unicode61')")
    start = time.perf_counter()
    with bare:
        bare.executemany("INSERT INTO t (text) VALUES (?)", [(t,) for t in texts])
    bare_s = time.perf_counter() - start
    queries = [" ".join(random.Random(q).sample(WORDS, 3)) for q in range(100)]
    with KnowledgeIndex(tmp / "index.sqlite") as index:
        times = []
        for q in queries:
            t0 = time.perf_counter()
            index.query(q, top_k=5)
            times.append((time.perf_counter() - t0) * 1000)
    bare_times = []
    for q in queries:
        match = " OR ".join(f'"{w}"' for w in query_terms(q))
        t0 = time.perf_counter()
        bare.execute(
            "SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 5", (match,)
        ).fetchall()
        bare_times.append((time.perf_counter() - t0) * 1000)
    bare.close()
    cut = statistics.quantiles(times, n=20)
    bare_cut = statistics.quantiles(bare_times, n=20)
    return {"docs_per_s": documents / index_s, "bare_docs_per_s": documents / bare_s,
            "p50": statistics.median(times), "p95": cut[18],
            "bare_p50": statistics.median(bare_times), "bare_p95": bare_cut[18]}  # fmt: skip


async def bench_turn(tmp: Path, turns: int) -> dict[str, float]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from agents.offline import OfflineChatModel
    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime
    from agents.runtime.events import RunFinished
    from storage.sqlite_store import SqliteConversationStore

    class TimedModel(OfflineChatModel):
        """The offline model, adding up the time spent in its calls."""

        spent: float = 0.0

        def reply_for(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            try:
                return super().reply_for(*args, **kwargs)
            finally:
                type(self).spent += time.perf_counter() - start

    store = SqliteConversationStore(tmp / "weaver.db")
    totals, models = [], []
    async with AsyncSqliteSaver.from_conn_string(str(tmp / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, data_dir=tmp / "data")
        conversation = store.create_conversation("paper-pilot", "bench")
        for n in range(turns + 1):
            user = store.add_message(conversation.id, "user", "What is LoRA?", None)
            TimedModel.spent = 0.0
            handle = ChatModelHandle(model=TimedModel(), provider="offline",
                                     model_name="offline", label="offline")  # fmt: skip
            start = time.perf_counter()
            events = [e async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=handle)]  # fmt: skip
            total = time.perf_counter() - start
            assert isinstance(events[-1], RunFinished), events[-1]
            if n:  # the first turn starts the knowledge server and compiles the graph
                totals.append(total * 1000)
                models.append(TimedModel.spent * 1000)
    store.close()
    outside = [t - m for t, m in zip(totals, models, strict=True)]
    return {"outside_ms": statistics.median(outside), "model_ms": statistics.median(models),
            "total_ms": statistics.median(totals)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="50 documents, 1 turn (smoke test)")
    args = parser.parse_args(argv)
    if args.quick:
        args.documents, args.turns = 50, 1
    with tempfile.TemporaryDirectory(prefix="weaver-pp-") as name:
        tmp = Path(name)
        index = bench_index(tmp, args.documents)
        turn = asyncio.run(bench_turn(tmp, args.turns))
    print(
        f"index {args.documents:,} documents: {index['docs_per_s']:.0f} docs/s   baseline "
        f"bare FTS5 insert {index['bare_docs_per_s']:.0f} docs/s   ratio "
        f"{index['bare_docs_per_s'] / index['docs_per_s']:.1f}x"
    )
    print(
        f"query p50 {index['p50']:.2f} ms, p95 {index['p95']:.2f} ms   baseline bare MATCH "
        f"p50 {index['bare_p50']:.2f} ms, p95 {index['bare_p95']:.2f} ms   ratio "
        f"{index['p50'] / max(index['bare_p50'], 0.001):.1f}x"
    )
    verdict = "PASS" if turn["outside_ms"] < TURN_TARGET_MS else "FAIL"
    print(f"simple turn outside the model {turn['outside_ms']:.1f} ms (turn {turn['total_ms']:.1f} "
          f"ms, baseline: the model calls {turn['model_ms']:.1f} ms)   target < "
          f"{TURN_TARGET_MS:.0f} ms   {verdict}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
