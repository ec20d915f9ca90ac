"""A turn's usage details (cached and reasoning tokens, cost) are summed over its model calls,
stored with the turn, and exported: over a tool round, on the real client and a real store."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, Usage
from storage.export import to_markdown, write_jsonl
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")


def _details(cached: int, reasoning: int, cost: float) -> dict[str, object]:
    return {
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": reasoning},
        "cost": cost,
    }


@pytest.mark.parametrize("where", ["final chunk", "in choice"])
async def test_details_are_summed_over_a_tool_round_stored_and_exported(
    where: str,
    tmp_path: Path,
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[ToolCall("search_knowledge_base", {"query": "BM25"})],
            usage=(50, 5),
            usage_extra=_details(30, 2, 0.0001),
            usage_at=where,
        ),
        Reply("BM25 ranks.", usage=(80, 7), usage_extra=_details(45, 3, 0.0002), usage_at=where),
    )
    user = new_turn(store, "researcher", "what is BM25?")

    events = await run(runtime, user, openai_model())

    finished = of_type(events, RunFinished)[0]
    assert finished.usage == Usage(130, 12, 142, 75, 5, 0.0003)  # the decimal sum, exactly
    reply = store.get_message(finished.leaf_id)
    assert reply.meta["usage"] == {
        "input_tokens": 80,
        "output_tokens": 7,
        "total_tokens": 87,
        "cached_tokens": 45,
        "reasoning_tokens": 3,
        "cost": 0.0002,
    }
    assert reply.meta["turn_usage"] == {
        "input_tokens": 130,
        "output_tokens": 12,
        "total_tokens": 142,
        "cached_tokens": 75,
        "reasoning_tokens": 5,
        "cost": 0.0003,
    }
    markdown = to_markdown(store, user.conversation_id)
    usage_lines = [line for line in markdown.splitlines() if "75" in line and "0.0003" in line]
    assert len(usage_lines) == 1, markdown
    folder = write_jsonl(store, user.conversation_id, tmp_path / "export")
    lines = (folder / "messages.jsonl").read_text(encoding="utf-8").splitlines()
    exported = [json.loads(line) for line in lines]
    assert any(
        row.get("meta", {}).get("turn_usage") == reply.meta["turn_usage"] for row in exported
    )


async def test_a_server_without_details_reports_none_of_them(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply("BM25 ranks.", usage=(80, 7)))
    user = new_turn(store, "researcher", "what is BM25?")

    events = await run(runtime, user, openai_model())

    finished = of_type(events, RunFinished)[0]
    assert finished.usage == Usage(80, 7, 87)
    turn_usage = store.get_message(finished.leaf_id).meta["turn_usage"]
    assert set(turn_usage) == {"input_tokens", "output_tokens", "total_tokens"}
