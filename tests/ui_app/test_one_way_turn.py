"""A turn flows one way: the screen shows the records its events carry and reads none of them
back from the store, and it writes nothing into the turn itself (the runtime marks a failure)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from storage.models import MessageStatus
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, chat, new_app, send
from weaver_tui.core.services import Services

pytestmark = pytest.mark.usefixtures("researcher")

READS = ("get_message", "list_messages", "message_rows")
WRITES = ("add_message", "update_message")


def spy(
    store: Any, names: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, Any, str]]:
    """Record every call of ``names`` on ``store`` (name, first argument and the module that
    called), passing it on."""
    calls: list[tuple[str, Any, str]] = []

    def wrap(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_globals.get("__name__", "")
            calls.append((name, args[0] if args else None, caller))
            return method(*args, **kwargs)

        return recorded

    for name in names:
        monkeypatch.setattr(store, name, wrap(name, getattr(store, name)))
    return calls


async def test_a_streamed_turn_with_a_tool_reads_back_none_of_its_records(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "rewoo"})]),
        Reply(deltas=[f"w{n} " for n in range(200)]),
    )
    store = remote_services.store
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        reads = spy(store, READS, monkeypatch)
        await send(pilot, "Tell me about ReWOO")
        monkeypatch.undo()
        conversation = screen.state.conversation
        assert conversation is not None
        records = store.list_messages(conversation.id)
        assert [r.role for r in records] == ["user", "assistant", "tool", "assistant"]
        turn_ids = {r.id for r in records[1:]}
        # the runtime reads the user's record to answer it; nothing reads the turn's records
        assert [call for call in reads if call[1] in turn_ids] == []
        assert [call for call in reads if call[2].startswith("weaver_tui")] == []
        assert [name for name, _, _ in reads] == ["get_message"]
        # and yet the screen holds every record exactly as stored, and shows the answer
        assert all(screen.state.index.get(r.id) == r for r in records)
        shown = screen.messages.items
        assert [item.id for item in shown] == [r.id for r in records]
        assert shown[-1].content == records[-1].content == "".join(f"w{n} " for n in range(200))
        assert shown[-1].status == "complete"
        assert screen.state.leaf_id == records[-1].id


async def test_a_failed_turn_is_written_by_the_runtime_and_only_shown_by_the_screen(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_openai.script(Reply.server_error(500))
    store = remote_services.store
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        writes = spy(store, WRITES, monkeypatch)
        reads = spy(store, READS, monkeypatch)
        await send(pilot, "hello")
        monkeypatch.undo()
        failed = screen.messages.items[-1]
        assert failed.role == "assistant"
        assert failed.status == "error"
        assert failed.error
        stored = store.get_message(failed.id)
        assert stored.status is MessageStatus.ERROR
        assert stored.meta["error"] == failed.error
        assert screen.state.index.get(failed.id) == stored
        # every write of the reply is the runtime's (its thread, its failure), none the app's
        of_reply = [(name, caller) for name, arg, caller in writes if arg == failed.id]
        assert of_reply
        assert all(caller.startswith("agents.") for _, caller in of_reply)
        assert [call for call in writes if call[2].startswith("weaver_tui.screens")] == []
        assert [call for call in reads if call[1] == failed.id] == []


async def test_a_sent_message_and_its_conversation_are_written_by_the_runtime(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_openai.script(Reply(deltas=["fine, ", "thanks"]), Reply(deltas=["again"]))
    store = remote_services.store
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        writes = spy(store, (*WRITES, "create_conversation", "rename_conversation"), monkeypatch)
        await send(pilot, "hello, how are you")
        await send(pilot, "and now?")
        monkeypatch.undo()
        conversation = screen.state.conversation
        assert conversation is not None
        users = [r for r in store.list_messages(conversation.id) if r.role == "user"]
        assert [r.content for r in users] == ["hello, how are you", "and now?"]
        # the conversation, both messages and both replies: every write is the runtime's
        assert {name for name, _, _ in writes} >= {"create_conversation", "add_message"}
        assert all(caller.startswith("agents.") for _, _, caller in writes), writes
        assert all(screen.state.index.get(r.id) == r for r in users)
        assert conversation.title == store.get_conversation(conversation.id).title


async def test_edits_regenerations_and_deletes_on_screen_are_written_by_the_runtime(
    remote_services: Services, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.ui_app.conftest import settle, wait_until
    from weaver_tui.screens.confirm import ConfirmScreen

    fake_openai.script(Reply("The answer is 41."), Reply("The answer is 42."))
    store = remote_services.store
    app = new_app(remote_services, profile="researcher")
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "what is the answer?")
        reply = screen.messages.items[-1]
        writes = spy(store, (*WRITES, "delete_branch"), monkeypatch)
        reads = spy(store, READS, monkeypatch)
        screen.selected_id = reply.id
        screen.branching.action_edit_selected()
        await pilot.pause()
        screen.composer.load_text("It is 41, my edit.")
        await pilot.press("enter")
        await settle(pilot)
        edited = screen.messages.items[-1]
        screen.branching.regenerate(edited.id)
        await settle(pilot)
        regenerated = screen.messages.items[-1]
        screen.branching.delete(edited.id)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        monkeypatch.undo()
        assert edited.content == "It is 41, my edit."
        assert regenerated.content == "The answer is 42."
        assert {name for name, _, _ in writes} >= {"add_message", "delete_branch"}
        assert all(caller.startswith("agents.") for _, _, caller in writes), writes
        # what the screen holds is what was written, and it read none of it back
        assert [call for call in reads if call[2].startswith("weaver_tui")] == []
        assert edited.id not in screen.state.index
        conversation = screen.state.conversation
        assert conversation is not None
        stored = store.list_messages(conversation.id)
        assert all(screen.state.index.get(r.id) == r for r in stored)
        assert {r.id for r in stored} == {reply.id, regenerated.id} | {stored[0].id}
