"""SVG snapshots of atom-developer at 120x40: the loop's stage lines in the tool pane beside
the reply's code, spec and report, and the confirmation Ctrl+S asks before saving.

Update deliberately with ``pytest tests/ui_app/test_atom_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from tests.atom_developer.graph_support import ERROR_SAMPLE
from tests.ui_app.conftest import SIZE, send, wait_until
from tests.ui_app.test_snapshots import SnapCompare, app_for, steady, then, utc
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen

__all__ = ["utc"]  # the fixture that pins the clock's zone, used here as well

REQUEST = f"Extract the error code when it is 500 or 503:\n```\n{ERROR_SAMPLE}\n```"


async def ask(pilot: Pilot[Any]) -> None:
    await send(pilot, REQUEST)


async def save_key(pilot: Pilot[Any]) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))


def test_atom_stages_and_artifacts(snap_compare: SnapCompare, services: Services) -> None:
    app = app_for(services, profile="atom-developer")
    assert snap_compare(app, terminal_size=SIZE, run_before=then(ask))


def test_atom_save_confirmation(snap_compare: SnapCompare, services: Services) -> None:
    app = app_for(services, profile="atom-developer")

    async def asked_and_saving(pilot: Pilot[Any]) -> None:
        await ask(pilot)
        await steady(pilot)
        await save_key(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=then(asked_and_saving))
