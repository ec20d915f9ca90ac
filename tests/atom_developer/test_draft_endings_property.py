"""atom-developer over generated draft answers, through the runtime with a real store and the
real ``ChatOpenAI`` client over HTTP: a draft that was refused, filtered, cut at the output
limit or empty ends the turn marked with one sentence (never the safe stub in its place); a
whole draft is validated as usual."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import PROFILE
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, answer
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.reply_shapes import BLANKS, FINISHES, MARKS, blank, one_sentence, unfinished

WHOLE = answer(GOOD).content


@st.composite
def drafts(draw: st.DrawFn) -> tuple[Reply, dict[str, Any]]:
    content = draw(st.sampled_from([*BLANKS, WHOLE]))
    finish = draw(st.sampled_from(FINISHES))
    refusal = draw(st.sampled_from([None, "I can't help with that."]))
    reply = Reply(content, finish_reason=finish, no_finish_reason=finish is None, refusal=refusal)
    return reply, {"content": content, "finish": finish, "refusal": refusal}


async def one_turn(folder: Path, model: Any) -> tuple[list[Any], SqliteConversationStore]:
    store = SqliteConversationStore(folder / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(folder / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, data_dir=folder / "data")
        conversation = store.create_conversation(PROFILE, "atoms")
        user = store.add_message(conversation.id, "user", REQUEST, None)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=model
            )
        ]
    return events, store


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(drafts())
def test_a_marked_draft_is_said_never_stubbed(
    fake_openai: FakeOpenAI, openai_model: Any, generated: tuple[Reply, dict[str, Any]]
) -> None:
    reply, shape = generated
    fake_openai.reset()
    fake_openai.script(reply)
    with tempfile.TemporaryDirectory() as folder:
        events, store = asyncio.run(one_turn(Path(folder), openai_model()))
        try:
            marked = (
                bool(shape["refusal"]) or unfinished(shape["finish"]) or blank(shape["content"])
            )
            end = events[-1]
            stages = {e.node for e in events if isinstance(e, ev.NodeStatus)}
            if not marked:
                assert isinstance(end, ev.RunFinished), end
                assert store.get_message(end.leaf_id).meta["atom_developer"]["valid"]
                return
            assert isinstance(end, ev.RunError), end
            assert "fallback" not in stages
            assert len(fake_openai.chat_requests) == 1
            assert end.record is not None
            stored = store.get_message(end.record.id)
            assert stored.status is MessageStatus.ERROR
            assert stored.meta["outcome"] in MARKS
            assert one_sentence(stored.meta["error"])
        finally:
            store.close()
