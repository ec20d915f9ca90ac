"""The loop's three paths on a provider's model: the real ChatOpenAI client streams scripted
replies from the local OpenAI-compatible server, and the validator judges what came back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agents.profiles.atom_developer.request import fenced
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, atom_turn
from tests.support.fake_openai import FakeOpenAI, Reply

GOOD = (Path(__file__).parent / "atoms" / "good.py").read_text(encoding="utf-8")
SPEC = "item_spec:\n  name: error_code\n  pattern: 'regex:\\d{3}'\n  kind: regex\n"
TYPE_LOCK_BROKEN = GOOD.replace('"value": str(', '"value": int(')
REQUEST = f"Extract the error code:\n```\n{ERROR_SAMPLE}\n```"


def answer(code: str, spec: str = SPEC, notes: str = "Done.") -> Reply:
    text = f"{fenced(code, 'python')}\n\n{fenced(spec, 'yaml')}\n\n{notes}"
    words = text.split(" ")
    return Reply(deltas=[w + " " for w in words[:-1]] + [words[-1]])


def test_the_broken_fixture_really_breaks_the_type_lock() -> None:
    assert TYPE_LOCK_BROKEN != GOOD


async def test_a_first_draft_that_passes_needs_one_model_call(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(answer(GOOD))
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    assert len(fake_openai.chat_requests) == 1
    sent = fake_openai.chat_bodies[0]["messages"]
    assert sent[0]["role"] == "system"
    assert "Architecture 10.2" in sent[0]["content"]
    assert sent[-1]["content"].startswith("Stage: draft")
    assert "code=503" in sent[-1]["content"]
    assert turn.trace["valid"]
    assert turn.trace["fixes"] == 0
    assert turn.artifact("python").strip() == GOOD.strip()


async def test_the_validators_errors_go_back_to_the_model_and_its_fix_passes(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(answer(TYPE_LOCK_BROKEN), answer(GOOD))
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    assert len(fake_openai.chat_requests) == 2
    fix_request = fake_openai.chat_bodies[1]["messages"][-1]["content"]
    assert fix_request.startswith("Stage: reflect (fix 1 of 3)")
    assert "Validation errors:" in fix_request
    assert TYPE_LOCK_BROKEN.strip() in fix_request
    assert turn.trace["valid"]
    assert turn.trace["fixes"] == 1
    assert turn.artifact("python").strip() == GOOD.strip()


async def test_after_three_failed_fixes_the_answer_is_the_safe_stub(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    broken = "import os\n\ndef extract_context(text, source_file):\n    return os.listdir('.')\n"
    fake_openai.script(*[answer(broken)] * 3, answer(broken, notes="I still need `os` here."))
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    assert len(fake_openai.chat_requests) == 4  # the draft and three fixes
    assert turn.trace["stub"]
    assert turn.trace["fixes"] == 3
    assert turn.reply.content.startswith("**Safe stub.**")
    assert "forbidden import 'os'" in turn.reply.content  # the last draft's errors are shown
    assert "os.listdir" not in turn.artifact("python")
    # What the model said beside its last fix is quoted, without its code.
    said = turn.reply.content.partition("**What the last fix said**")[2]
    assert said.split("**")[0].strip() == "I still need `os` here."
