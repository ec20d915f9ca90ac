"""Editing a reply and continuing it: the edited text becomes a new version beside the reply
(nothing overwritten, no turn runs); "Continue reply" makes another version that starts with
that text and streams what the model writes next. The model gets the reply back as its own
message and a request to go on; the profile's graph decides whether it can."""

from __future__ import annotations

from agents.runtime.continuation import CONTINUE_PROMPT
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.openai_script import ToolCall
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services


async def test_an_edited_reply_is_a_new_version_and_continues_from_its_text(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("The answer is 41."), Reply(deltas=[" Then", " add one."]))
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "what is the answer?")
        reply = screen.messages.items[-1]
        screen.selected_id = reply.id
        screen.branching.action_edit_selected()
        await pilot.pause()
        assert screen.composer.text == "The answer is 41."
        assert screen.composer.hint.startswith("editing reply v1/1")
        screen.composer.load_text("The answer is 42, because")
        await pilot.press("enter")
        await settle(pilot)
        edited = screen.messages.items[-1]
        assert (edited.content, edited.version, edited.sibling_count) == ("The answer is 42, because", 2, 2)  # fmt: skip
        assert len(fake_openai.chat_requests) == 1  # saving an edit runs no turn

        screen.selected_id = edited.id
        await palette_run(pilot, "Continue reply")
        await settle(pilot)
        continued = screen.messages.items[-1]
        assert continued.content == "The answer is 42, because Then add one."
        assert (continued.version, continued.sibling_count) == (3, 3)
        sent = fake_openai.chat_bodies[-1]["messages"]
        assert sent[-2] == {"role": "assistant", "content": "The answer is 42, because"}
        assert sent[-1] == {"role": "user", "content": CONTINUE_PROMPT}
        stored = remote_services.store.get_message(continued.id)
        assert stored.meta["continued_from"] == edited.id
        assert remote_services.store.get_message(reply.id).content == "The answer is 41."


async def test_the_offline_model_continues_and_a_question_graph_does_not_offer_it(
    services: Services,
) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "hello")
        before = screen.messages.items[-1].content
        await palette_run(pilot, "Continue reply")
        await settle(pilot)
        after = screen.messages.items[-1]
        assert after.content.startswith(before)
        assert len(after.content) > len(before)
        assert after.version == 2
    async with new_app(services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        assert screen.branching.check_action("continue_reply", ()) is not True


async def test_continuing_an_edited_reply_after_a_tool_round_makes_its_next_version(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("list_files", {"path": "."})]),
        Reply("There are two files."),
        Reply(deltas=[" Both", " are small."]),
    )
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, "which files are there?")
        reply = screen.messages.items[-1]
        store = remote_services.store
        assert store.get_message(reply.id).role == "assistant"
        screen.selected_id = reply.id
        screen.branching.action_edit_selected()
        await pilot.pause()
        screen.composer.load_text("There are exactly two files.")
        await pilot.press("enter")
        await settle(pilot)
        edited = screen.messages.items[-1]
        assert edited.version == 2

        screen.selected_id = edited.id
        await palette_run(pilot, "Continue reply")
        await settle(pilot)
        continued = screen.messages.items[-1]
        assert continued.content == "There are exactly two files. Both are small."
        assert (continued.version, continued.sibling_count) == (3, 3)
        assert store.get_message(continued.id).parent_id == store.get_message(edited.id).parent_id
        path = [m.id for m in store.path_to_root(continued.id)]
        assert store.get_message(reply.id).parent_id in path  # the tool round stays on the path
        body = fake_openai.chat_requests[-1].body
        assert body is not None
        sent = body["messages"]
        assert any(m["role"] == "tool" for m in sent)  # the model sees the tool round again
