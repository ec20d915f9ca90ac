"""atom-developer on a real ``ChatOpenAI`` client over HTTP, against the local server playing a
model that thinks inline (``<think>`` in its content, with code in its thoughts) and reports
usage: the reply, its notes and its artifacts hold none of the reasoning, and the turn records
the tokens of every draft and fix."""

from __future__ import annotations

from collections.abc import Callable

from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import atom_turn
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, TYPE_LOCK_BROKEN, answer
from tests.support.fake_openai import FakeOpenAI, Reply

THOUGHT = "<think>SECRET-IDEA: maybe\n```python\nimport os\n```\n</think>\n\n"


def thinking(reply: Reply, usage: tuple[int, int]) -> Reply:
    deltas = [THOUGHT[:9], THOUGHT[9:], *(reply.deltas or [])]
    return Reply(deltas=deltas, usage=usage)


async def test_inline_reasoning_stays_out_of_the_reply_and_usage_is_summed(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(
        thinking(answer(TYPE_LOCK_BROKEN, notes="First try."), (500, 80)),
        thinking(answer(GOOD, notes="Fixed the type."), (700, 90)),
    )

    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    assert turn.trace["valid"]
    assert turn.trace["fixes"] == 1
    assert "SECRET" not in turn.reply.content
    assert "<think>" not in turn.reply.content
    assert "import os" not in turn.artifact("python")
    assert turn.artifact("python").strip() == GOOD.strip()
    fix_request = fake_openai.chat_bodies[1]["messages"][-1]["content"]
    assert "SECRET" not in fix_request
    finished = [e for e in turn.events if isinstance(e, ev.RunFinished)]
    assert finished[0].usage == ev.Usage(1200, 170, 1370)
    assert turn.reply.meta["turn_usage"]["total_tokens"] == 1370
