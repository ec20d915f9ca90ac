"""Driving atom-developer's graph in tests: a runtime on real SQLite files, one turn, and what
it showed (stage lines) and stored (the reply, its trace and artifacts)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.offline import OfflineChatModel
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore

PROFILE = "atom-developer"
ERROR_SAMPLE = (
    "2024-01-01 10:00:00 ERROR code=500 db down\n"
    "2024-01-01 10:00:01 INFO ok\n"
    "2024-01-01 10:00:02 ERROR code=503 upstream"
)

BROKEN_DRAFT = """import re
import os
import subprocess
from typing import Dict, List

CODE = re.compile(r"code=(\\d+)")


def extract_context(text: str, source_file: str) -> List[Dict]:
    items = []
    for n, line in enumerate(text.splitlines(), 1):
        m = CODE.search(line)
        if m:
            print("found", m.group(1))
            items.append({"value": str(m.group(1)), "source_file": source_file,
                          "line_number": n, "matched_content": line, "parsed_fields": {}})
    return items
"""
"""A user's draft that breaks three rules (two forbidden imports, a print) and keeps one
pattern of its own."""


@dataclass
class Turn:
    events: list[Any]
    reply: Any
    stages: list[str]

    @property
    def trace(self) -> dict[str, Any]:
        return dict(self.reply.meta.get("atom_developer") or {})

    def artifact(self, language: str) -> str:
        found = [a for a in self.reply.meta.get("artifacts") or [] if a["language"] == language]
        return str(found[0]["text"]) if found else ""


def offline_handle() -> ChatModelHandle:
    return ChatModelHandle(
        model=OfflineChatModel(), provider="offline", model_name="offline", label="offline"
    )


async def atom_turn(
    runtime: AgentRuntime,
    store: SqliteConversationStore,
    text: str,
    *,
    model: ChatModelHandle | None = None,
    project_root: Path | None = None,
) -> Turn:
    """Run one turn of a new atom-developer conversation on ``text``."""
    meta = {"project_root": str(project_root)} if project_root else None
    conversation = store.create_conversation(PROFILE, "atoms", meta=meta)
    user = store.add_message(conversation.id, "user", text, None)
    kwargs: dict[str, Any] = {"project_root": project_root} if project_root else {}
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation.id,
            user_message_id=user.id,
            model=model or offline_handle(),
            **kwargs,
        )
    ]
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    reply = store.get_message(finished[-1].leaf_id)
    stages = [f"{e.node}: {e.text}" for e in events if isinstance(e, ev.NodeStatus)]
    return Turn(events, reply, stages)
