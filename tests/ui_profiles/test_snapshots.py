"""Pictures of the patch review and of the mediator's shared and private views at 100x30
(update with ``--snapshot-update``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.patch_review.patches import Patch
from tests.ui_profiles.conftest import APP_PY, SIZE, PanelHost, ScreenHost, Space
from weaver_tui.screens.invite import InviteScreen
from weaver_tui.screens.patch_review import PatchReviewScreen
from weaver_tui.widgets.space_panel import SpacePanel


def test_patch_review(snap_compare: Any, project: Path, patch: Patch) -> None:
    app = ScreenHost(lambda: PatchReviewScreen(patch, project))
    assert snap_compare(app, terminal_size=SIZE)


def test_patch_review_conflict_in_the_light_theme(
    snap_compare: Any, project: Path, patch: Patch
) -> None:
    async def accept_after_an_edit(pilot: Any) -> None:
        (project / "src/app.py").write_text(APP_PY.replace("Goodbye", "Bye"), encoding="utf-8")
        await pilot.press("a")
        await pilot.pause()

    app = ScreenHost(lambda: PatchReviewScreen(patch, project), theme="weaver-light")
    assert snap_compare(app, terminal_size=SIZE, run_before=accept_after_an_edit)


def mediator(space: Space, speaker: str | None = None) -> PanelHost:
    panel = SpacePanel(space.participants, speaker=speaker)
    return PanelHost(panel, space)


def test_mediator_shared_view(snap_compare: Any, space: Space) -> None:
    async def shared(pilot: Any) -> None:
        await pilot.press("f3")
        await pilot.pause()

    assert snap_compare(mediator(space), terminal_size=SIZE, run_before=shared)


def test_mediator_private_view_of_alex(snap_compare: Any, space: Space) -> None:
    async def alex(pilot: Any) -> None:
        await pilot.pause()  # laid out before the click
        await pilot.click("#channel-tabs #choice-2")
        await pilot.pause()

    assert snap_compare(mediator(space, speaker="Sam"), terminal_size=SIZE, run_before=alex)


def test_mediator_model_view_shows_deliveries(snap_compare: Any, space: Space) -> None:
    """The "All" view (the model's): every record, each delivery as the mediator's message with the
    words sent and its audience ("Mediator → Alex [private]", "Mediator → everyone")."""

    async def laid_out(pilot: Any) -> None:
        await pilot.pause()

    assert snap_compare(mediator(space), terminal_size=SIZE, run_before=laid_out)


INVITE_LINES = (
    "Alex: http://127.0.0.1:8000/?seat=Qm9vdHN0cmFwLXRva2VuLWZvci1BbGV4LTAwMDAwMDAwMDA",
    "Sam: http://127.0.0.1:8000/?seat=U2VhdC10b2tlbi1mb3ItU2FtLTExMTExMTExMTExMTExMTE",
)


def test_invite_participants_dialog(snap_compare: Any) -> None:
    """One line per participant, the second chosen (``c`` copies it)."""

    async def choose_sam(pilot: Any) -> None:
        await pilot.press("down")
        await pilot.pause()

    app = ScreenHost(lambda: InviteScreen(INVITE_LINES))
    assert snap_compare(app, terminal_size=SIZE, run_before=choose_sam)
