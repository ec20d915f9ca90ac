"""Accepting a patch writes the file only where the turn records it: when the resumed turn
cannot run (here another process is answering in the conversation), the file is unchanged and
the review still waits, so the tree, the record and the folder agree; a later reject is true."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.patch_review import PatchReviewScreen

ORIGINAL = 'def greet(name):\n    return "hi " + name\n'


@pytest.fixture
def project(weaver_env: Path) -> Path:
    root = weaver_env / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text(ORIGINAL)
    return root


def patch_statuses(services: Services, conversation_id: str) -> list[str]:
    records = services.store.list_messages(conversation_id)
    return [r.meta["patch_status"] for r in records if r.role == "tool" and "patch_id" in r.meta]


async def test_an_accept_whose_turn_cannot_resume_writes_nothing(
    services: Services, project: Path
) -> None:
    app = new_app(services, profile="ide-helper", project_root=project)
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await send(pilot, 'In src/app.py, rename `"hi " + name` to `f"hi {name}"`')
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PatchReviewScreen))
        conversation = screen.state.conversation
        assert conversation is not None
        with services.turn_locks.hold(conversation.id):  # another process answers here
            await pilot.press("a")
            await settle(pilot)
        assert (project / "src" / "app.py").read_text() == ORIGINAL
        assert screen.pending_review() is not None
        assert patch_statuses(services, conversation.id) == ["pending"]

        await pilot.press("f4")  # the review again: rejecting it now is what happened
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PatchReviewScreen))
        await pilot.press("r")
        await settle(pilot)
        assert (project / "src" / "app.py").read_text() == ORIGINAL
        assert patch_statuses(services, conversation.id) == ["rejected"]
