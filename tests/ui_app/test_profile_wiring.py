"""The chat screen drives the profile panels: the mediator's speaker, audience and views, and
the ide-helper's patch review that pauses and resumes a turn (offline model, real files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.shared_space.events import UserMessageEvent
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.patch_review import PatchReviewScreen
from weaver_tui.widgets.project_root_label import ProjectRootLabel
from weaver_tui.widgets.space_panel import SpacePanel


async def test_mediator_speaker_and_views_follow_the_keys(services: Services) -> None:
    async with new_app(services, profile="mediator").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.agents_ready)  # the panel comes after the paint
        await pilot.pause()
        assert screen.query_one(SpacePanel) is not None
        assert screen.composer.speaker == "Alex"
        await send(pilot, "I think we spend too much on eating out")
        conversation = screen.state.conversation
        assert conversation is not None
        assert conversation.meta["participants"] == ["Alex", "Sam"]
        records = screen.state.store.list_messages(conversation.id)
        first = records[0]
        assert first.meta["sender"] == "Alex"
        assert first.meta["visibility"] == "Alex"
        # the record is the space's own event, stored as the event keeps itself
        said = UserMessageEvent(sender="Alex", content=first.content).record_meta()
        assert {key: first.meta[key] for key in said} == said
        # said to the mediator only: answered privately, never summarised to Sam
        assert not [r for r in records if r.meta.get("visibility") == "shared"]
        private = [item for item in screen.messages.items if item.visibility == "private → Alex"]
        assert private, "the mediator's private reply to Alex is marked in the model view"
        await pilot.press("f2")
        await pilot.pause()
        assert screen.composer.speaker == "Sam"
        await pilot.press("f8")  # to everyone
        await send(pilot, "Groceries matter more to me")
        records = screen.state.store.list_messages(conversation.id)
        sams = [r for r in records if r.role == "user" and r.meta.get("sender") == "Sam"]
        assert sams
        assert sams[0].meta["visibility"] == "shared"
        everything = len(screen.messages.items)
        await pilot.press("f3")  # the shared channel
        await pilot.pause()
        assert screen.space_view == "shared"
        shared = screen.messages.items
        assert len(shared) < everything
        assert all(item.visibility != "private → Alex" for item in shared)


@pytest.fixture
def project(weaver_env: Path) -> Path:
    root = weaver_env / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text('def greet(name):\n    return "hi " + name\n')
    return root


async def test_a_proposed_patch_opens_for_review_and_accepting_resumes_the_turn(
    services: Services, project: Path
) -> None:
    app = new_app(services, profile="ide-helper", project_root=project)
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        assert screen.query_one(ProjectRootLabel) is not None
        await send(pilot, 'In src/app.py, rename `"hi " + name` to `f"hi {name}"`')
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PatchReviewScreen))
        assert (project / "src" / "app.py").read_text().startswith("def greet(name):")
        await pilot.press("a")
        await settle(pilot)
        assert pilot.app.screen is screen
        assert (
            project / "src" / "app.py"
        ).read_text() != 'def greet(name):\n    return "hi " + name\n'
        records = screen.state.store.list_messages(screen.state.conversation.id)  # type: ignore[union-attr]
        assert any(r.role == "tool" and "Applied patch" in r.content for r in records)
        assert records[-1].role == "assistant"
        assert records[-1].status.value == "complete"
        # the closing reply is written after the review: the old text only as the diff's
        # removed line, never quoted as what the file holds, nor a review still to come
        old_lines = [line for line in records[-1].content.splitlines() if '"hi " + name' in line]
        assert all(line.startswith("-") for line in old_lines), old_lines
        assert "until you accept" not in records[-1].content
        assert screen.messages.items[-1].id == screen.state.leaf_id
        assert screen.pending_review() is None
        # The decision settles the waiting result in place: no second version, no new branch.
        tool_records = [r for r in records if r.role == "tool" and r.meta.get("patch_id")]
        assert len(tool_records) == 1
        assert tool_records[0].meta["patch_status"] == "applied"
        assert screen.header.branch is not None
        assert screen.header.branch.count == 1
        shown = [item.id for item in screen.messages.items]
        assert shown.count(tool_records[0].id) == 1


async def test_a_review_left_for_later_waits_across_a_restart(
    weaver_env: Path, services: Services, project: Path
) -> None:
    async with new_app(services, profile="ide-helper", project_root=project).run_test(
        size=SIZE
    ) as pilot:
        await send(pilot, 'In src/app.py, rename `"hi " + name` to `f"hi {name}"`')
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PatchReviewScreen))
        await pilot.press("escape")  # decide later
        await settle(pilot)
        assert chat(pilot.app).pending_review() is not None
    services.close_store()
    again = build_services(provider="offline")
    try:
        app = new_app(again, profile="ide-helper", project_root=project)
        async with app.run_test(size=SIZE) as pilot:
            screen = chat(app)
            await wait_until(pilot, lambda: screen.agents_ready)
            await pilot.pause()
            assert screen.query_one(ProjectRootLabel).pending == 1
            await pilot.press("f4")
            await wait_until(pilot, lambda: isinstance(app.screen, PatchReviewScreen))
            await pilot.press("r")  # reject
            await settle(pilot)
            assert (project / "src" / "app.py").read_text().startswith("def greet(name):")
            records = again.store.list_messages(screen.state.conversation.id)  # type: ignore[union-attr]
            assert any(r.role == "tool" and "rejected" in r.content.lower() for r in records)
            assert screen.pending_review() is None
            assert screen.query_one(ProjectRootLabel).pending == 0
    finally:
        again.close_store()
