"""``session/load`` works in the folder the client gives, never in the root a stored (or
imported) conversation names; a prompt over ``max_message_bytes`` (50 MB, say) is one error,
nothing of it is stored, and the agent keeps serving."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import PROTOCOL_VERSION, RequestError, text_block

from tests.acp.agent_process import AcpAgent, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_load_works_in_the_clients_folder_not_the_stored_root(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.txt").write_text("SECRET-ELSEWHERE\n", encoding="utf-8")
    here = tmp_path / "here"
    here.mkdir()
    (here / "secret.txt").write_text("the folder the editor gave\n", encoding="utf-8")
    agent.data_dir.mkdir(exist_ok=True)
    with agent.open_store() as store:
        conversation = store.create_conversation(
            "ide-helper", "Made elsewhere", {"project_root": str(elsewhere)}
        )
        question = store.add_message(conversation.id, "user", "hello", None)
        store.add_message(conversation.id, "assistant", "Hi.", question.id)
    fake_openai.script(
        Reply(content="Reading.", tool_calls=[ToolCall("read_file", {"path": "secret.txt"})]),
        Reply("Read it."),
    )
    await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    await agent.load(here, conversation.id)
    thoughts = " ".join(
        str(getattr(u.content, "text", "")) for u in agent.client.of_kind("agent_thought_chunk")
    )
    assert str(elsewhere) in thoughts  # the stored root is named, not used
    await agent.ask(conversation.id, "read secret.txt")
    sent = " ".join(str(r.body) for r in fake_openai.chat_requests)
    assert "SECRET-ELSEWHERE" not in sent
    assert "the folder the editor gave" in sent


async def test_a_50_mb_prompt_is_one_error_and_nothing_is_stored(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    fake_openai.script(Reply("Small and fine."))
    session = await agent.start(tmp_path)
    huge = "x" * 50_000_000
    with pytest.raises(RequestError) as refused:
        await agent.conn.prompt(session_id=session, prompt=[text_block(huge)])
    assert "max_message_bytes" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert fake_openai.chat_requests == []
    with agent.open_store() as store:
        assert not any(
            len(m.content) > 1_000_000
            for c in store.list_conversations()
            for m in store.list_messages(c.id)
        )
    await agent.ask(session, "a small one")  # still serving, the same session
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        assert leaf.content == "Small and fine."


async def test_an_imported_applied_patch_is_not_acted_on_over_acp(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    from tests.ide_helper.test_forged_patches import VICTIM, crafted_export, forged_edits

    agent = ide_helper_agent
    project = tmp_path / "project"
    project.mkdir()
    (project / "Makefile").write_text(VICTIM)
    agent.data_dir.mkdir(exist_ok=True)
    with agent.open_store() as store:
        conversation = store.import_jsonl(crafted_export(tmp_path / "e", forged_edits()[0]))
        assert store.accepted_patches([r.id for r in store.list_messages(conversation.id)]) == {}
    fake_openai.script(Reply("Nothing to undo here."))
    await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    await agent.load(project, conversation.id)
    await agent.ask(conversation.id, "undo the last patch")
    assert (project / "Makefile").read_text() == VICTIM
    assert not agent.client.of_kind("tool_call_update")
