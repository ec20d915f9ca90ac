"""An evaluation of paper-pilot you can run on your own model: a small question set over the
notes shipped with weaver-tui (answerable, multi-hop, comparative and unanswerable questions,
each with its gold notes and the gold terms a right answer holds), asked through the real
graph and the embedded knowledge server, scored on what the replies say and cite.

- accuracy: answerable questions whose answer holds every gold term (and is not "not in your
  notes");
- citation precision (ALCE-style): citations whose chunk holds the gold terms of the sentence
  that cites it, of all citations in sentences holding a gold term;
- citation recall: sentences holding a gold term that cite at least one such chunk;
- not in notes: unanswerable questions answered "not in your notes" (never from the model's
  own knowledge);
- calls/answer: model calls per question (every stage's, retries of a structured call too).

    .venv/bin/python benchmarks/eval_paper_pilot.py                       # the offline demo
    .venv/bin/python benchmarks/eval_paper_pilot.py --base-url http://127.0.0.1:11434/v1 \\
        --model qwen3:8b [--api-key-env OPENAI_API_KEY]                    # your model
    .venv/bin/python benchmarks/eval_paper_pilot.py --scripted             # the suite's server

``--scripted`` runs on the test suite's OpenAI-compatible server playing a model that routes
by the question set, cites the source sentences that hold the gold terms, and answers an
unanswerable question from its own knowledge with no citation (which the audit must stop).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sqlite3
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402

from agents.profiles.paper_pilot.citation_audit import CITATION, split_sentences  # noqa: E402


@dataclass(frozen=True)
class Question:
    text: str
    kind: str
    """answerable, multi_hop, comparative or unanswerable"""
    gold_notes: tuple[str, ...]
    gold_terms: tuple[str, ...]
    entities: tuple[str, ...] = ()


QUESTIONS: tuple[Question, ...] = (
    Question("What is LoRA?", "answerable", ("ml/lora",), ("low-rank",), ("LoRA",)),
    Question("How many parameters does LoRA train?", "answerable", ("ml/lora",),
             ("one percent",), ("LoRA",)),
    Question("What does RLHF optimize the policy with?", "answerable", ("ml/rlhf",), ("PPO",),
             ("RLHF",)),
    Question("How much accuracy do eight-bit weights cost in quantization?", "answerable",
             ("ml/quantization",), ("almost no accuracy",)),
    Question("What does the method that skips the reward model depend on?", "multi_hop",
             ("ml/dpo",), ("preference pairs",)),
    Question("What does the agent that writes a reflection keep in memory?", "multi_hop",
             ("agents/reflexion",), ("reflection",)),
    Question("Compare DPO and RLHF", "comparative", ("ml/dpo", "ml/rlhf"),
             ("reward model",), ("DPO", "RLHF")),
    Question("Compare ReWOO and ReAct", "comparative", ("agents/rewoo", "agents/react"),
             ("ReWOO", "ReAct"), ("ReWOO", "ReAct")),
    Question("What is the capital of France?", "unanswerable", (), (), ("France",)),
    Question("What does Quillfeather say about mitochondria?", "unanswerable", (), (),
             ("Quillfeather",)),
    Question("Which learning rate does the LoRA paper recommend for DoRA adapters?",
             "unanswerable", (), (), ("DoRA",)),
)  # fmt: skip
KINDS = ("answerable", "multi_hop", "comparative", "unanswerable")
INTENT_OF = {"answerable": "factual", "multi_hop": "multi_hop", "comparative": "comparative",
             "unanswerable": "factual"}  # fmt: skip
OWN_KNOWLEDGE = "Everyone knows the answer: it is in every encyclopedia, beyond any doubt."


@dataclass
class Outcome:
    question: Question
    answer: str = ""
    settled: str = ""
    calls: int = 0
    correct_citations: int = 0
    citations: int = 0
    supported_sentences: int = 0
    gold_sentences: int = 0
    error: str = ""

    @property
    def body(self) -> str:
        return self.answer.partition("**Sources**")[0]

    @property
    def accurate(self) -> bool:
        if self.question.kind == "unanswerable":
            return False
        held = all(t.lower() in self.body.lower() for t in self.question.gold_terms)
        return held and self.settled != "not in your notes" and not self.error

    @property
    def not_in_notes(self) -> bool:
        return self.settled == "not in your notes"


class CallCounter(BaseCallbackHandler):
    """Counts the model's calls (every chat request, whichever stage made it)."""

    def __init__(self) -> None:
        self.calls = 0

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1

    def on_llm_start(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1


# -- scoring ----------------------------------------------------------------------------------


def chunk_texts(index: Path) -> dict[tuple[str, str], str]:
    """Every chunk of the index by (document, section)."""
    with sqlite3.connect(index) as conn:
        rows = conn.execute("SELECT doc_id, section, text FROM chunks").fetchall()
    found: dict[tuple[str, str], str] = {}
    for doc_id, section, text in rows:
        key = (str(doc_id), str(section))
        found[key] = found.get(key, "") + " " + str(text)
    return found


def score(outcome: Outcome, sources: Sequence[Mapping[str, Any]], chunks: Mapping[tuple[str, str], str]) -> None:  # fmt: skip
    """ALCE-style citation precision and recall of one answer on its gold terms."""
    terms = [t.lower() for t in outcome.question.gold_terms]
    for sentence in split_sentences(outcome.body):
        held = [t for t in terms if t in CITATION.sub("", sentence).lower()]
        if not held:
            continue
        outcome.gold_sentences += 1
        good = 0
        for n in (int(n) for n in CITATION.findall(sentence)):
            outcome.citations += 1
            if 0 < n <= len(sources):
                source = sources[n - 1]
                text = chunks.get((str(source.get("doc_id")), str(source.get("section"))), "")
                if all(t in text.lower() for t in held):
                    good += 1
        outcome.correct_citations += good
        outcome.supported_sentences += good > 0


def ratio(part: float, whole: float) -> str:
    return f"{part / whole:.2f}" if whole else "-"


def table(outcomes: Sequence[Outcome], label: str) -> str:
    lines = [
        f"paper-pilot evaluation on {label}: {len(outcomes)} questions",
        f"{'kind':<13}{'n':>3}{'accuracy':>10}{'cit.prec':>10}{'cit.rec':>9}{'not-in-notes':>14}{'calls/ans':>11}",
    ]  # fmt: skip
    for kind in (*KINDS, "all"):
        group = [o for o in outcomes if kind in ("all", o.question.kind)]
        if not group:
            continue
        answerable = [o for o in group if o.question.kind != "unanswerable"]
        unanswerable = [o for o in group if o.question.kind == "unanswerable"]
        precision = ratio(sum(o.correct_citations for o in group), sum(o.citations for o in group))  # fmt: skip
        recall = ratio(sum(o.supported_sentences for o in group), sum(o.gold_sentences for o in group))  # fmt: skip
        lines.append(
            f"{kind:<13}{len(group):>3}"
            f"{ratio(sum(o.accurate for o in answerable), len(answerable)):>10}"
            f"{precision:>10}{recall:>9}"
            f"{ratio(sum(o.not_in_notes for o in unanswerable), len(unanswerable)):>14}"
            f"{sum(o.calls for o in group) / len(group):>11.1f}"
        )
    return "\n".join(lines)


# -- the scripted model -------------------------------------------------------------------------


def _question_of(body: Mapping[str, Any]) -> Question | None:
    text = str((body.get("messages") or [{}])[-1].get("content") or "")
    asked = re.search(r"^Question: (.+)$", text, re.M)
    if asked is None:
        return None
    return next((q for q in QUESTIONS if q.text == asked.group(1).strip()), None)


def scripted_route(body: dict[str, Any]) -> dict[str, Any]:
    question = _question_of(body) or QUESTIONS[0]
    return {"intent": INTENT_OF[question.kind], "confidence": 0.9, "reason": "scripted",
            "entities": list(question.entities), "dimensions": [], "constraints": [],
            "reformulated_query": question.text, "collections": []}  # fmt: skip


def scripted_answer(body: dict[str, Any]) -> str:
    """Cite each gold note's source sentence that holds the gold terms; with none, answer
    from "its own knowledge", citing nothing."""
    question = _question_of(body)
    text = str((body.get("messages") or [{}])[-1].get("content") or "")
    sources = re.findall(r"^\[(\d+)\] [^(]*\(([^#)]+)[^)]*\): (.+)$", text, re.M)
    picked: list[str] = []
    for gold in question.gold_notes if question else ():
        for n, doc_id, passage in sources:
            if doc_id != gold:
                continue
            for sentence in re.split(r"(?<=[.!?])\s+", passage):
                if any(t.lower() in sentence.lower() for t in question.gold_terms):  # type: ignore[union-attr]
                    picked.append(f"{sentence.rstrip('.')} [{n}].")
                    break
            else:
                continue
            break
    return " ".join(picked) or OWN_KNOWLEDGE


@contextmanager
def scripted_server() -> Iterator[str]:
    """The suite's OpenAI-compatible server playing the scripted model; yields its URL."""
    from tests.support.fake_openai import FakeOpenAI
    from tests.support.structured_answers import StructuredAnswers

    answers: dict[str, Any] = {
        "RouteDecision": scripted_route,
        "ResearchPlan": lambda body: {"steps": [(_question_of(body) or QUESTIONS[0]).text]},
        "ReplanDecision": {"action": "next", "revised_step": ""},
        "ReactStep": lambda body: {"thought": "done", "action": "finish", "query": ""},
        "CriticVerdict": {"score": 0.9, "passed": True, "feedback": ""},
        "Refinement": lambda body: {"query": (_question_of(body) or QUESTIONS[0]).text},
    }
    server = FakeOpenAI().start()
    server.default = StructuredAnswers(answers, scripted_answer, model="scripted")
    try:
        yield server.base_url
    finally:
        server.stop()


# -- running ------------------------------------------------------------------------------------


async def evaluate(handle: Any, questions: Sequence[Question], data_dir: Path) -> list[Outcome]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from agents.profiles.paper_pilot.commands import index_path
    from agents.runtime import events as ev
    from agents.runtime.agent_runtime import AgentRuntime
    from storage.sqlite_store import SqliteConversationStore

    counter = CallCounter()
    handle.model.callbacks = [counter]
    store = SqliteConversationStore(data_dir / "weaver.db")
    outcomes = []
    async with AsyncSqliteSaver.from_conn_string(str(data_dir / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, data_dir=data_dir)
        for question in questions:
            conversation = store.create_conversation("paper-pilot", question.text[:40])
            user = store.add_message(conversation.id, "user", question.text, None)
            before = counter.calls
            events = [e async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=handle)]  # fmt: skip
            outcome = Outcome(question, calls=counter.calls - before)
            finished = [e for e in events if isinstance(e, ev.RunFinished)]
            if not finished:
                errors = [e.error.user_message for e in events if isinstance(e, ev.RunError)]
                outcome.error = "; ".join(errors) or "no reply"
                outcomes.append(outcome)
                continue
            reply = store.get_message(finished[-1].leaf_id)
            outcome.answer = reply.content
            outcome.settled = str((reply.meta.get("paper_pilot") or {}).get("settled") or "")
            score(outcome, reply.meta.get("sources") or [], chunk_texts(index_path(data_dir)))
            outcomes.append(outcome)
    store.close()
    return outcomes


def model_handle(args: argparse.Namespace, base_url: str | None) -> Any:
    from pydantic import SecretStr

    from agents.providers import ProviderConfig, make_chat_model

    if base_url is None:
        return make_chat_model(ProviderConfig(provider="offline"))
    key = os.environ.get(args.api_key_env, "") if args.api_key_env else ""
    return make_chat_model(ProviderConfig(provider="openai-compatible", model=args.model,
                                          base_url=base_url, api_key=SecretStr(key or "none"),
                                          timeout=args.timeout))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint (default: offline)")
    parser.add_argument("--model", default="", help="the model name sent to it")
    parser.add_argument("--api-key-env", default="", help="the variable holding its key")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--scripted", action="store_true", help="the suite's scripted server")
    parser.add_argument("--json", action="store_true", help="each question's outcome as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="weaver-eval-") as name:
        data_dir = Path(name)
        if args.scripted:
            with scripted_server() as url:
                args.model = args.model or "scripted"
                outcomes = asyncio.run(evaluate(model_handle(args, url), QUESTIONS, data_dir))
            label = "the scripted server"
        else:
            handle = model_handle(args, args.base_url)
            outcomes = asyncio.run(evaluate(handle, QUESTIONS, data_dir))
            label = f"{args.model} at {args.base_url}" if args.base_url else "the offline demo"
    if args.json:
        for o in outcomes:
            print(json.dumps({"question": o.question.text, "kind": o.question.kind,
                              "settled": o.settled, "accurate": o.accurate, "calls": o.calls,
                              "citations": o.citations, "correct": o.correct_citations,
                              "error": o.error}))  # fmt: skip
    print(table(outcomes, label))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
