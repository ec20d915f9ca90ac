"""What the mediator's side derives from the whole space never reaches a participant through a
record they may read (the allowlist of :data:`storage.audience.READER_META`), over the real
runtime and the fake OpenAI-compatible server:

- the summary of older turns, stored on the last record it covers (here Alex's own reply),
  which quotes Sam's private message;
- the model's reasoning beside a reply to Alex, which names what Sam said privately.

Each is read as Alex reads it: the path and the tree the store gives a viewer, and the export
written from Alex's view. The generated cases of every key: tests/storage/test_interface_reader_meta.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RecordSaved
from agents.runtime.tree_edits import TreeEdits
from agents.shared_space.events import UserMessageEvent
from storage.models import Conversation
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply

SECRET = "I lost our savings at the casino last spring and I feel ashamed."


def _alex_reads(store: Any, space: Conversation, tmp_path: Path) -> list[str]:
    leaf = store.active_leaf(space.id)
    texts = [json.dumps(r.meta) + r.content for r in store.path_to_root(leaf.id, "Alex")]
    texts += [row.meta + row.content for row in store.message_rows(space.id, "Alex")]
    folder = store.export_jsonl(space.id, tmp_path / "alex", "Alex")
    texts.append((folder / "messages.jsonl").read_text(encoding="utf-8"))
    texts.append(store.export_markdown(space.id, None, "Alex"))
    return texts


async def test_the_summary_of_older_turns_never_reaches_another_participant(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    fake_openai: Any,
    openai_model: Any,
    tmp_path: Path,
) -> None:
    model = openai_model()
    fake_openai.script(Reply("Thank you, Sam."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SECRET))
    for turn in range(4):
        fake_openai.script(Reply(f"Noted, Alex ({turn})."))
        await say(
            runtime, store, space, model,
            UserMessageEvent(sender="Alex", content=f"Point {turn}.", visibility="shared"),
        )  # fmt: skip
    fake_openai.script(Reply(f"Sam said privately: {SECRET} Alex raised four points."))
    leaf = store.active_leaf(space.id)
    saved = await TreeEdits(store).summarise(leaf.id, model.model)
    assert isinstance(saved, RecordSaved)
    assert "casino" in saved.record.meta["summary"]
    assert saved.record.meta.get("visibility") == "Alex"  # the summary sits on Alex's reply

    assert all("casino" not in text for text in _alex_reads(store, space, tmp_path))


async def test_the_reasoning_beside_a_reply_to_alex_never_reaches_alex(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    fake_openai: Any,
    openai_model: Any,
    tmp_path: Path,
) -> None:
    model = openai_model()
    fake_openai.script(Reply("Thank you, Sam."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SECRET))
    thought = "Sam lost the savings at the casino; I must not tell Alex."
    fake_openai.script(Reply("Let us look at the savings together.", reasoning=[thought]))
    await say(runtime, store, space, model, UserMessageEvent(sender="Alex", content="Where is it?"))
    leaf = store.active_leaf(space.id)
    assert "casino" in str(store.get_message(leaf.id).meta.get("reasoning"))  # the host's

    reads = _alex_reads(store, space, tmp_path)
    assert any("Let us look at the savings together." in text for text in reads)
    assert all("casino" not in text for text in reads)
