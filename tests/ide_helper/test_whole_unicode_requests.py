"""No request carries a lone surrogate: whatever text a history holds (a tool result listing a
file whose name is not UTF-8, a user's or a model's text decoded from a ``\\udXXX`` escape, a
tool call's arguments or name), the payload the real ``ChatOpenAI`` builds encodes as UTF-8
JSON, each lone surrogate sent as U+FFFD and every other character as it was. And end to end:
an ide-helper turn that lists a project holding such a file completes, its next request reaching
the server."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from pydantic import SecretStr

from agents.providers.openai_reasoning import ReasoningChatOpenAI
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished
from tests.storage.test_storable_text import whole
from tests.support.fake_openai import Reply, ToolCall

LONE = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udcff", "\udfff"])
texts = st.lists(LONE | st.text(max_size=8), max_size=6).map("".join)


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[BaseMessage], list[str]]:
    said = [draw(texts) for _ in range(5)]
    call = {"name": "read_file", "args": {"path": said[2]}, "id": "c1", "type": "tool_call"}
    messages: list[BaseMessage] = [
        HumanMessage(said[0]),
        AIMessage(content=said[1], tool_calls=[call]),
        ToolMessage(content=said[3], tool_call_id="c1", name="read_file"),
        AIMessage(content=said[4]),
        HumanMessage("and now?"),
    ]
    return messages, said


@settings(max_examples=150, deadline=None)
@given(history=histories())
def test_every_request_is_whole_unicode(history: tuple[list[BaseMessage], list[str]]) -> None:
    messages, said = history
    model = ReasoningChatOpenAI(model="m", base_url="http://127.0.0.1:9/v1", api_key=SecretStr("k"))
    payload = model._get_request_payload(messages)
    body = json.dumps(payload, ensure_ascii=False)
    body.encode("utf-8")  # strict: a lone surrogate would raise here, as in the client
    for text in (said[0], said[1], said[3], said[4]):  # the arguments go as a JSON string
        assert json.dumps(whole(text), ensure_ascii=False)[1:-1] in body


async def test_a_file_name_that_is_not_utf8_does_not_fail_the_turn(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    (project / os.fsdecode(b"bad\xffname.py")).write_text("x = 1\n")
    fake_openai.script(
        Reply(tool_calls=[ToolCall("list_files", {}, id="c1")]), Reply("Listed them.")
    )
    conversation = store.create_conversation("ide-helper", "t", meta={"project_root": str(project)})
    user = store.add_message(conversation.id, "user", "what is here?", None)
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        events = [
            e
            async for e in AgentRuntime(store, saver).run_turn(
                conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
            )
        ]
    assert isinstance(events[-1], RunFinished)
    assert events[-1].status == "complete"
    listed = fake_openai.chat_bodies[1]["messages"][-1]
    assert listed["role"] == "tool"
    assert "bad\ufffdname.py" in listed["content"]
