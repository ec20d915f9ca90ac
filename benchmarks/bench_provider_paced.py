"""Model round trips and time to the first answer word, against a provider paced like a real one.

The test suite's local OpenAI-compatible server answers with a first byte after 400 ms and
60 tokens/s (``--first-byte``, ``--rate``), the way a hosted model does. Measured through the
real ``ChatOpenAI`` client and the real runtime (``AgentRuntime.send``), each against the same
baseline in the same run: a bare ``ChatOpenAI.astream`` of one answer, to its first word.

- ide-helper, a question answered without tools;
- mediator, a message answered by one private reply (a tool round, then the closing words);
- paper-pilot, a factual question: route and slots (one structured call where the model allows
  it), retrieval from the bundled knowledge base, the synthesis streamed as a draft, the
  critic; then one question of each other intent (comparative, multi-hop, exploratory), each
  through its strategy's own calls.

For each: the model requests the turn made (round trips) and the time from send to the first
answer word on the event stream, as a multiple of the baseline. paper-pilot's questions are
measured after one question in the same session (its knowledge server running, as for every
question after a session's first). The first question's own figure is the ``cold`` row: a new
data folder, the runtime opened and the profile's warm-up started as the app does once it can
take a question, and the question sent at once (as a user who types before the knowledge server
is up); ``cold, no warm-up`` is the same without the warm-up; ``first, server up`` is the first
question of a session asked once the warm-up's server is up (as a user who types for longer than
the server takes to start). Goal: a factual paper-pilot
question shows its first answer word within 3 round trips of the baseline's time, a multi-hop or
exploratory one within 4 (the router gives a multi-hop question's steps with its intent, and
exploration searches the routed question before its first decision).

    .venv/bin/python benchmarks/bench_provider_paced.py [--runs 3] [--first-byte 0.4] [--rate 60]
"""

from __future__ import annotations

import argparse
import asyncio
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

from pydantic import SecretStr  # noqa: E402

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model  # noqa: E402
from agents.runtime.events import MessageStored, TokenDelta  # noqa: E402
from agents.runtime.user_message import NewMessage  # noqa: E402
from agents.structured import MEMO  # noqa: E402
from tests.support.fake_openai import FakeOpenAI  # noqa: E402
from tests.support.openai_script import Reply, ToolCall  # noqa: E402
from tests.support.structured_answers import StructuredAnswers  # noqa: E402

ANSWER = "LoRA trains small low-rank matrices beside the frozen weights [1], so few weights move."
SLOTS: dict[str, Any] = {"dimensions": [], "constraints": []}
PAPER_PILOT: dict[str, Any] = {
    "RouteDecision": {"intent": "factual", "confidence": 0.9, "reason": "one thing",
                      "entities": ["LoRA"], "reformulated_query": "What is LoRA?", **SLOTS},
    "CriticVerdict": {"score": 0.95, "passed": True, "feedback": ""},
}  # fmt: skip
INTENTS: dict[str, tuple[dict[str, Any], str]] = {
    "comparative": (
        {"entities": ["LoRA", "DPO"], "reformulated_query": "Compare LoRA and DPO cost"},
        "Compare LoRA and DPO in terms of cost",
    ),
    "multi_hop": (
        {"entities": [], "reformulated_query": "What does the method that skips the reward model compare against?",
         "steps": ["method that skips the reward model", "what it compares against"]},
        "What does the method that skips the reward model compare against?",
    ),
    "exploratory": (
        {"entities": [], "reformulated_query": "What is known about quantization?"},
        "What is known about quantization?",
    ),
}  # fmt: skip
"""Each other intent: its slots and its question (its strategy's own calls answered below)."""
STRATEGY_STEPS: dict[str, Any] = {
    "ResearchPlan": {"steps": ["method that skips the reward model", "what it compares against"]},
    "ReplanDecision": {"action": "next", "revised_step": ""},
    "ReactStep": {"thought": "search", "action": "search", "query": "quantization"},
}
TARGET_ROUND_TRIPS = 3.0
TARGET_PLANNED = 4.0
"""Multi-hop and exploratory questions: first answer word within this multiple of the baseline."""
FACTUAL = "paper-pilot, factual"
FIRST_OF_SESSION = "paper-pilot, factual, cold"
"""The first question of a session, sent as the runtime opens and the warm-up starts its
knowledge server (the server's start is not a round trip)."""
FIRST_UNWARMED = "paper-pilot, factual, cold, no warm-up"
FIRST_SERVER_UP = "paper-pilot, factual, first, server up"


def paced(source: Callable[[dict[str, Any]], Reply], first_byte: float, rate: float) -> Any:
    """``source`` with every reply's first byte and tokens paced like a hosted model."""

    def reply(body: dict[str, Any]) -> Reply:
        answer = source(body)
        answer.first_byte_delay = first_byte
        answer.token_delay = 1.0 / rate
        return answer

    return reply


def mediator_source(body: dict[str, Any]) -> Reply:
    """A private reply through the tool, then a short closing line."""
    if any(m.get("role") == "tool" for m in body.get("messages") or []):
        return Reply("I have answered Alex privately.")
    args = {"recipient": "Alex", "content": "Saving a little each month is a fine start."}
    return Reply(tool_calls=[ToolCall("reply_privately", args)])


def handle(server: FakeOpenAI) -> ChatModelHandle:
    config = ProviderConfig(
        provider="openai-compatible",
        model="paced-model",
        base_url=server.base_url,
        api_key=SecretStr("sk-bench-not-a-real-key"),
    )
    return make_chat_model(config)


async def baseline(model: ChatModelHandle) -> float:
    start = time.perf_counter()
    async for chunk in model.model.astream("Say something."):
        if chunk.content:
            return time.perf_counter() - start
    raise RuntimeError("the baseline answer had no words")


async def turn(
    tmp: Path,
    model: ChatModelHandle,
    server: FakeOpenAI,
    message: NewMessage,
    *,
    warm: bool = True,
    server_up: bool = False,
) -> tuple[float, int]:
    """Open a runtime on ``tmp``, start the profile's warm-up (when ``warm``), send ``message``
    at once (or once the knowledge server answers, when ``server_up``): its round trips and the
    time from its storing to the first answer word."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from agents.profile_registry import get_profile
    from agents.runtime.agent_runtime import AgentRuntime
    from storage.sqlite_store import SqliteConversationStore

    before = len(server.chat_requests)
    store = SqliteConversationStore(tmp / "weaver.db")
    try:
        async with AsyncSqliteSaver.from_conn_string(str(tmp / "checkpoints.db")) as saver:
            runtime = AgentRuntime(store, saver, data_dir=tmp / "data")
            if warm:
                runtime.warm_up(get_profile(message.profile))
            if server_up:
                from agents.profiles.paper_pilot.knowledge.sessions import knowledge_session

                await knowledge_session(runtime.data_dir, runtime.profile_settings).collections()
            start = first = 0.0
            async for event in runtime.send(
                message, model=model, sender=message.meta.get("sender")
            ):
                if isinstance(event, MessageStored):
                    start = time.perf_counter()
                elif isinstance(event, TokenDelta) and event.text.strip() and not first:
                    first = time.perf_counter() - start
    finally:
        store.close()
    return first, len(server.chat_requests) - before


CASES: dict[str, tuple[Callable[[dict[str, Any]], Reply], NewMessage]] = {
    "ide-helper, no tools": (
        lambda body: Reply("The config is read in settings.py, at start-up."),
        NewMessage(profile="ide-helper", text="Where is the config read?"),
    ),
    "mediator, one private reply": (
        mediator_source,
        NewMessage(
            profile="mediator",
            text="I want to save more each month.",
            meta={"sender": "Alex", "visibility": "private"},
            conversation_meta={"participants": ["Alex", "Sam"]},
        ),
    ),
    FACTUAL: (
        StructuredAnswers(PAPER_PILOT, ANSWER),
        NewMessage(profile="paper-pilot", text="What is LoRA?"),
    ),
    **{
        f"paper-pilot, {intent}": (
            StructuredAnswers(
                {
                    **PAPER_PILOT,
                    **STRATEGY_STEPS,
                    "RouteDecision": {"intent": intent, "confidence": 0.9, **SLOTS, **slots},
                },
                ANSWER,
            ),
            NewMessage(profile="paper-pilot", text=question),
        )
        for intent, (slots, question) in INTENTS.items()
    },
}


async def main(runs: int, first_byte: float, rate: float) -> None:
    with FakeOpenAI() as server:
        model = handle(server)
        firsts = (FIRST_OF_SESSION, FIRST_UNWARMED, FIRST_SERVER_UP)
        rows: dict[str, list[tuple[float, int]]] = {name: [] for name in firsts}
        rows.update({name: [] for name in CASES})
        bases: list[float] = []
        for _ in range(runs):
            server.default = paced(StructuredAnswers({}, ANSWER), first_byte, rate)
            bases.append(await baseline(model))
            for name, (source, message) in CASES.items():
                MEMO.forget()
                server.default = paced(source, first_byte, rate)
                with tempfile.TemporaryDirectory() as folder:
                    if message.profile == "paper-pilot":
                        # The session's first question may wait for its knowledge server to
                        # start; the rows below are the questions after it.
                        cold = await turn(Path(folder), model, server, message)
                        if name == FACTUAL:
                            rows[FIRST_OF_SESSION].append(cold)
                    rows[name].append(await turn(Path(folder), model, server, message))
                if name == FACTUAL:
                    # After the cold row: what a process does once (imports, compiling the
                    # graph) counts against the warm-up, never for it.
                    for row, warm, up in ((FIRST_UNWARMED, False, False),
                                          (FIRST_SERVER_UP, True, True)):  # fmt: skip
                        MEMO.forget()  # each first question learns the model's ways afresh
                        with tempfile.TemporaryDirectory() as folder:
                            measured = await turn(
                                Path(folder), model, server, message, warm=warm, server_up=up
                            )
                            rows[row].append(measured)
    base = statistics.median(bases)
    print(
        f"provider paced: first byte {first_byte * 1000:.0f} ms, {rate:.0f} tokens/s, {runs} runs"
    )
    print(f"baseline ChatOpenAI.astream, first word: {base * 1000:.0f} ms")
    print(f"{'turn':<40} {'round trips':>11} {'first word':>11} {'x baseline':>11}")
    for name, results in rows.items():
        first = statistics.median(r[0] for r in results)
        trips = statistics.median(r[1] for r in results)
        print(f"{name:<40} {trips:>11.0f} {first * 1000:>9.0f} ms {first / base:>10.2f}x")
    pilot = statistics.median(r[0] for r in rows[FACTUAL]) / base
    verdict = "PASS" if pilot <= TARGET_ROUND_TRIPS else "FAIL"
    print(f"paper-pilot factual first word within {TARGET_ROUND_TRIPS:.0f}x baseline: {verdict}")
    for intent in ("multi_hop", "exploratory"):
        ratio = statistics.median(r[0] for r in rows[f"paper-pilot, {intent}"]) / base
        verdict = "PASS" if ratio <= TARGET_PLANNED else "FAIL"
        print(f"paper-pilot {intent} first word within {TARGET_PLANNED:.0f}x baseline: {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--first-byte", type=float, default=0.4)
    parser.add_argument("--rate", type=float, default=60.0)
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.first_byte, args.rate))
