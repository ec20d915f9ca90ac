"""Rewind in the app: checking out an earlier message offers to revert the patches applied
after it (the file really goes back), the palette's "Redo patch" and "Undo last patch" move one
patch, a file edited by hand since is a conflict left alone, and the tree marks the patch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.support.applied_patch import ORIGINAL, PATCHED
from tests.support.applied_patch import seed_applied_patch as seed_in_store
from tests.ui_app.conftest import SIZE, chat, new_app, settle, wait_until
from tests.ui_app.test_branching import tree_cursor_to
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.widgets.conversation_tree.labels import PATCH_MARKS


def seed_applied_patch(services: Services, project: Path) -> tuple[str, str]:
    """See :func:`tests.support.applied_patch.seed_applied_patch`."""
    return seed_in_store(services.store, project)


def notes(pilot: Pilot[Any]) -> list[str]:
    return [n.message for n in pilot.app._notifications]


def tree_line(pilot: Pilot[Any], record_id: str) -> str:
    tree = chat(pilot.app).tree
    return tree.label_text(record_id)


async def confirm_palette(pilot: Pilot[Any], command: str) -> str:
    """Run ``command`` from the palette and confirm the question it asks; return it."""
    await palette_run(pilot, command)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    screen = pilot.app.screen
    assert isinstance(screen, ConfirmScreen)
    question = screen.question
    await pilot.press("y")
    await settle(pilot)
    return question


async def ask_to_check_out(pilot: Pilot[Any], record_id: str) -> None:
    """Enter on ``record_id`` in the tree, until the rewind's confirm dialog is up."""
    await tree_cursor_to(pilot, record_id)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))


async def test_checking_out_an_earlier_message_reverts_the_patch_after_it_and_redo_restores(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    first_id, tool_id = seed_applied_patch(services, project)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert PATCH_MARKS["applied"] in tree_line(pilot, tool_id)
        await ask_to_check_out(pilot, first_id)
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == ORIGINAL
        assert any("Reverted" in n and "src/app.py" in n for n in notes(pilot))
        assert PATCH_MARKS["reverted"] in tree_line(pilot, tool_id)

        assert "src/app.py" in await confirm_palette(pilot, "Redo patch")
        assert (project / "src/app.py").read_text() == PATCHED
        assert PATCH_MARKS["applied"] in tree_line(pilot, tool_id)

        assert "src/app.py" in await confirm_palette(pilot, "Undo last patch")
        assert (project / "src/app.py").read_text() == ORIGINAL


async def test_undo_of_a_file_edited_since_shows_the_conflict_and_leaves_it(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    _first_id, tool_id = seed_applied_patch(services, project)
    mine = PATCHED + "# my own line\n"
    (project / "src/app.py").write_text(mine)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await confirm_palette(pilot, "Undo last patch")
        assert (project / "src/app.py").read_text() == mine
        conflict = [n for n in pilot.app._notifications if n.title == "Conflict"]
        assert conflict
        assert "src/app.py" in conflict[0].message
        assert conflict[0].severity == "error"
        assert PATCH_MARKS["applied"] in tree_line(pilot, tool_id)


async def test_after_undo_checking_out_the_branch_or_flipping_back_offers_the_patch_again(
    services: Services, tmp_path: Path
) -> None:
    """Undo, then Enter on the branch's last reply offers the patch again; so does flipping to
    another version of the question and back (a version flip is a checkout too)."""
    project = tmp_path / "project"
    _first_id, tool_id = seed_applied_patch(services, project)
    store = services.store
    call = store.get_message(store.get_message(tool_id).parent_id or "")
    ask = store.get_message(call.parent_id or "")
    done = store.active_leaf(ask.conversation_id)
    assert done is not None
    other = store.add_message(ask.conversation_id, "user", "leave it as it is", ask.parent_id)
    store.set_active_leaf(ask.conversation_id, done.id)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await confirm_palette(pilot, "Undo last patch")
        assert (project / "src/app.py").read_text() == ORIGINAL

        await ask_to_check_out(pilot, done.id)  # the branch already shown
        screen = pilot.app.screen
        assert isinstance(screen, ConfirmScreen)
        assert "re-apply" in screen.question
        assert "src/app.py" in screen.question
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == PATCHED

        await confirm_palette(pilot, "Undo last patch")
        view = chat(pilot.app)
        view.messages.focus()
        view.messages.select_message(ask.id)
        await settle(pilot)
        await pilot.press("right_square_bracket")  # to the other question: nothing to rewind
        await settle(pilot)
        assert view.state.leaf_id == other.id
        await pilot.press("left_square_bracket")  # back: the undone patch is offered again
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == PATCHED


async def test_going_back_over_two_patches_with_one_file_edited_since_moves_no_file(
    services: Services, tmp_path: Path
) -> None:
    """Checking out the first message concerns two patches of two files; the older file was
    edited by hand, so neither is reverted (the newer file is not rewound alone)."""
    from agents.patch_review.patches import make_patch

    project = tmp_path / "project"
    first_id, tool_id = seed_applied_patch(services, project)
    store = services.store
    done = store.active_leaf(store.get_message(tool_id).conversation_id)
    assert done is not None
    created = make_patch(project, "src/new.py", 1, 0, "VALUE = 1\n")
    (project / "src/new.py").write_text(created.new_content)
    edit = created.edit
    assert edit is not None
    meta = {"tool_call_id": "c2", "name": "propose_edit", "patch_id": created.id,
            "patch_path": "src/new.py", "patch_status": "applied", "patch_edit": edit}  # fmt: skip
    second = store.add_message(done.conversation_id, "tool", "Created", done.id, meta=meta)
    store.accept_patch(second.id, created.id, "src/new.py", None, edit["new_sha256"])
    store.set_active_leaf(done.conversation_id, second.id)
    mine = PATCHED + "# my own line\n"
    (project / "src/app.py").write_text(mine)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await ask_to_check_out(pilot, first_id)
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == mine
        assert (project / "src/new.py").read_text() == "VALUE = 1\n"  # not rewound alone
        conflicts = [n for n in pilot.app._notifications if n.title == "Conflict"]
        assert any("src/app.py" in n.message for n in conflicts)
        assert PATCH_MARKS["applied"] in tree_line(pilot, tool_id)
        assert PATCH_MARKS["applied"] in tree_line(pilot, second.id)
