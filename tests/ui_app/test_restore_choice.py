"""Going back past an applied patch asks "conversation only" or "conversation and files", by
keyboard: regenerating the reply that follows the patch with ``f`` reverts it (the file really
goes back) and then answers again, ``c`` answers again with the file left patched, Esc does
neither; resending an edit with a file changed by hand since shows the conflict, writes
nothing and keeps the draft (real HTTP to the fake provider, the real file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.support.applied_patch import ORIGINAL, PATCHED, seed_applied_patch
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_branching import tree_cursor_to, view_select
from weaver_tui.core.services import Services
from weaver_tui.screens.restore_choice import RestoreChoiceScreen


def seeded(services: Services, project: Path) -> tuple[str, str, str, str]:
    """(the user message before the patch, the patch's record, the reply after it, its
    conversation)."""
    _first, tool_id = seed_applied_patch(services.store, project)
    store = services.store
    tool = store.get_message(tool_id)
    reply = store.children(tool_id, tool.conversation_id)[0]
    call = store.get_message(tool.parent_id or "")
    return call.parent_id or "", tool_id, reply.id, tool.conversation_id


async def regenerate(pilot: Pilot[Any], reply_id: str) -> None:
    await settle(pilot)
    await tree_cursor_to(pilot, reply_id)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, RestoreChoiceScreen))


def status(services: Services, tool_id: str) -> object:
    return services.store.get_message(tool_id).meta["patch_status"]


async def test_f_reverts_the_patch_then_regenerates(
    remote_services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    ask_id, tool_id, reply_id, _cid = seeded(remote_services, project)
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await regenerate(pilot, reply_id)
        await pilot.press("f")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == ORIGINAL
        assert status(remote_services, tool_id) == "reverted"
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: not screen.running)
        answers = remote_services.store.children(ask_id, _cid)
        assert len(answers) == 2  # the new reply beside the old branch


async def test_c_regenerates_and_leaves_the_file(remote_services: Services, tmp_path: Path) -> None:
    project = tmp_path / "project"
    ask_id, tool_id, reply_id, cid = seeded(remote_services, project)
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await regenerate(pilot, reply_id)
        await pilot.press("c")
        await settle(pilot)
        await wait_until(pilot, lambda: not chat(pilot.app).running)
        assert (project / "src/app.py").read_text() == PATCHED
        assert status(remote_services, tool_id) == "applied"
        assert len(remote_services.store.children(ask_id, cid)) == 2


async def test_escape_neither_regenerates_nor_writes(
    remote_services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    ask_id, tool_id, reply_id, cid = seeded(remote_services, project)
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await regenerate(pilot, reply_id)
        await pilot.press("escape")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == PATCHED
        assert status(remote_services, tool_id) == "applied"
        assert len(remote_services.store.children(ask_id, cid)) == 1


async def test_resending_an_edit_over_a_file_changed_since_writes_nothing(
    remote_services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    ask_id, tool_id, _reply_id, cid = seeded(remote_services, project)
    (project / "src/app.py").write_text("changed by hand\n")
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = chat(pilot.app)
        await view_select(pilot, ask_id)
        await pilot.press("e")
        await send(pilot, "say Hey instead", wait=False)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RestoreChoiceScreen))
        await pilot.press("f")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == "changed by hand\n"
        assert status(remote_services, tool_id) == "applied"
        ask = remote_services.store.get_message(ask_id)
        assert len(remote_services.store.children(ask.parent_id, cid)) == 1
        assert screen.composer.text == "say Hey instead"
        assert any(n.severity == "error" for n in pilot.app._notifications)


async def test_retrying_a_failed_turn_past_its_patch_asks_too(
    remote_services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    ask_id, tool_id, _reply_id, cid = seeded(remote_services, project)
    async with new_app(remote_services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = chat(pilot.app)
        screen.retry_user_id = ask_id  # as a turn that applied the patch and then failed leaves it
        await pilot.press("f5")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RestoreChoiceScreen))
        await pilot.press("f")
        await settle(pilot)
        await wait_until(pilot, lambda: not screen.running)
        assert (project / "src/app.py").read_text() == ORIGINAL
        assert status(remote_services, tool_id) == "reverted"
        assert len(remote_services.store.children(ask_id, cid)) == 2
