"""The citation audit on a real ``ChatOpenAI`` client over HTTP, against the local server
playing a model (and its critic) that says "passed" whatever it wrote: an answer that cites
nothing, a comparison with one side uncited, a duplicated passage and a question the notes do
not answer. The badge and the memory follow the audit this code ran, never the model's word."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.profiles.paper_pilot.commands import index_path
from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.profiles.paper_pilot.traits import reply_badge
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.structured_answers import message_texts

Runtime = tuple[AgentRuntime, SqliteConversationStore]


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


def decision(name: str, **args: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, args)])


def route(query: str, *entities: str, intent: str = "factual") -> Reply:
    return decision("RouteDecision", intent=intent, confidence=0.95, reason="asked",
                    entities=list(entities), reformulated_query=query)  # fmt: skip


def passed() -> Reply:
    """The model's critic, sure of itself whatever it reads."""
    return decision("CriticVerdict", score=1.0, passed=True, feedback="")


def numbered_sources(body: dict[str, Any]) -> dict[int, str]:
    """The synthesis request's numbered sources: number -> its line."""
    text = message_texts(body)
    return {int(n): line for n, line in re.findall(r"^\[(\d+)\] (.+)$", text, re.M)}


def citing(write: Callable[[dict[int, str]], str]) -> Callable[[dict[str, Any]], Reply]:
    """A synthesis that reads the numbers the request gave its sources."""
    return lambda body: Reply(write(numbered_sources(body)))


def number_of(sources: dict[int, str], word: str) -> int:
    return next(n for n, line in sources.items() if word.lower() in line.lower())


async def run(runtime: Runtime, model: Any, question: str) -> tuple[list[Any], Any]:
    pilot, store = runtime
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", question, None)
    events = [
        e
        async for e in pilot.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=model
        )
    ]
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    return events, store.get_message(finished[-1].leaf_id)


def remembered(data_dir: Path) -> list[str]:
    with Memory(memory_path(data_dir)) as memory:
        return [fact.text for fact in memory.all()]


UNCITED = "LoRA is a parameter-efficient fine-tuning method that freezes the base model."


async def test_an_answer_that_cites_nothing_goes_back_once_then_is_not_in_your_notes(
    notes_runtime: Runtime, data_dir: Path, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    fake_openai.script(
        route("What is LoRA?", "LoRA"), Reply(UNCITED), passed(), Reply(UNCITED), passed()
    )

    _, reply = await run(notes_runtime, openai_model(), "What is LoRA?")

    assert len(fake_openai.chat_requests) == 5  # sent back once, then settled
    second_draft = message_texts(fake_openai.chat_bodies[3] or {})
    assert "failed the citation check" in second_draft
    assert "uncited" in second_draft
    trace = reply.meta["paper_pilot"]
    assert trace["verdict"]["passed"]  # the model's critic said so ...
    assert trace["settled"] == "not in your notes"  # ... the audit did not
    assert reply.meta["check"]["state"] == "unchecked"
    assert "checked" not in (reply_badge(reply.meta) or "").replace("unchecked", "")
    assert UNCITED not in reply.content  # not answered from the model's own knowledge
    assert reply.meta["sources"] == []
    assert any(c["where"].endswith("ml/lora.md") for c in reply.meta["closest"])
    assert remembered(data_dir) == []
    stages = [s["stage"] for s in trace["stages"]]
    assert stages.count("synthesize") == 2
    assert "revise" in stages


async def test_a_comparison_with_one_side_uncited_is_partly_supported(
    notes_runtime: Runtime, data_dir: Path, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    def one_sided(sources: dict[int, str]) -> str:
        lora = number_of(sources, "under one percent")
        return (f"LoRA trains well under one percent of the parameters of the model [{lora}]. "
                "DPO is far more expensive than LoRA in every setting.")  # fmt: skip

    fake_openai.script(
        route("Compare LoRA and DPO", "LoRA", "DPO", intent="comparative"),
        citing(one_sided), passed(), citing(one_sided), passed(),
    )  # fmt: skip

    _, reply = await run(notes_runtime, openai_model(), "Compare LoRA and DPO")

    trace = reply.meta["paper_pilot"]
    assert trace["settled"] == "partly supported"
    assert trace["audit"]["uncovered"] == ["DPO"]
    statuses = {s["status"] for s in trace["audit"]["sentences"]}
    assert statuses == {"supported", "uncited"}
    body = reply.content.partition("**Sources**")[0]
    assert "every setting. *(no source cited)*" in body
    assert "partly supported" in (reply_badge(reply.meta) or "")
    assert reply.meta["check"]["state"] == "unchecked"
    assert "covers DPO" in message_texts(fake_openai.chat_bodies[3] or {})
    facts = remembered(data_dir)
    assert facts
    assert not any("DPO" in fact for fact in facts)  # nothing unsupported is remembered


async def test_a_comparison_mended_on_its_one_revision_is_checked(
    notes_runtime: Runtime, data_dir: Path, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    def one_sided(sources: dict[int, str]) -> str:
        return f"LoRA trains well under one percent of the parameters [{number_of(sources, 'under one percent')}]."  # fmt: skip

    def both(sources: dict[int, str]) -> str:
        dpo = number_of(sources, "separate reward model")
        return one_sided(sources) + f" DPO trains no separate reward model [{dpo}]."

    fake_openai.script(
        route("Compare LoRA and DPO", "LoRA", "DPO", intent="comparative"),
        citing(one_sided), passed(), citing(both), passed(),
    )  # fmt: skip

    _, reply = await run(notes_runtime, openai_model(), "Compare LoRA and DPO")

    assert reply.meta["paper_pilot"]["settled"] == "checked"
    assert reply.meta["check"]["state"] == "checked"
    assert {s["doc_id"] for s in reply.meta["sources"]} == {"ml/lora", "ml/dpo"}
    assert any("DPO" in fact for fact in remembered(data_dir))


async def test_a_question_the_notes_do_not_answer_is_not_written(
    notes_runtime: Runtime, data_dir: Path, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    question = "What does Quillfeather say about mitochondria?"
    fake_openai.script(route(question, "Quillfeather", "mitochondria"))

    _, reply = await run(notes_runtime, openai_model(), question)

    assert len(fake_openai.chat_requests) == 1  # the router only: nothing to write from
    assert reply.meta["paper_pilot"]["settled"] == "not in your notes"
    assert reply.meta["sources"] == []
    assert "[1]" not in reply.content
    assert remembered(data_dir) == []


NOTE = """# Quillfeather

## Nesting
Quillfeather herons nest in reed beds above slow water and lay three eggs each spring.
"""


async def test_the_same_passage_reached_twice_is_one_source_named_by_its_file(
    pilot_runtime: Runtime,
    data_dir: Path,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    openai_model: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    notes, copy = tmp_path / "notes", tmp_path / "backup"
    notes.mkdir()
    (notes / "quillfeather.md").write_text(NOTE)
    shutil.copytree(notes, copy)
    with KnowledgeIndex(index_path(data_dir)) as index:
        index.add_folder(notes, "mine")
        index.add_folder(copy, "backup")

    def cite_both(sources: dict[int, str]) -> str:
        cites = "".join(f"[{n}]" for n, line in sources.items() if "reed beds" in line)
        return f"Quillfeather herons nest in reed beds above slow water {cites}."

    question = "Where do Quillfeather herons nest?"
    fake_openai.script(route(question, "Quillfeather"), citing(cite_both), passed())

    _, reply = await run(pilot_runtime, openai_model(), question)

    sent = numbered_sources(fake_openai.chat_bodies[1] or {})
    assert sum("reed beds" in line for line in sent.values()) == 1  # one passage, one number
    assert len(fake_openai.chat_requests) == 3
    assert reply.meta["paper_pilot"]["settled"] == "checked"
    assert len(reply.meta["sources"]) == 1
    assert reply.meta["sources"][0]["where"] in ("notes/quillfeather.md", "backup/quillfeather.md")
    assert "[2]" not in reply.content
