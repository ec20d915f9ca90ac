"""The fifth test profile in the app: its panel shows the lines it computes, its key (and
palette command) runs its handler, and both go when another profile opens; nothing in the app
names the profile (see ``tests/cli/test_fifth_profile.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette

from tests.support.quintet_profile.traits import KEY
from tests.support.quintet_registry import QUINTET, register_quintet
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send, settle, wait_until
from weaver_tui.commands import WeaverCommands
from weaver_tui.screens.profile_picker import ProfilePickerScreen
from weaver_tui.widgets.profile_lines import ProfileLines


@pytest.fixture
def registered(weaver_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    register_quintet(monkeypatch)
    (weaver_env / "config.yaml").write_text("quintet:\n  greeting: Ahoy\n", encoding="utf-8")


def _lines(app: object) -> tuple[str, ...]:
    panels = chat(app).query(ProfileLines)  # type: ignore[arg-type]
    return panels.first().lines if panels else ()


@pytest.mark.usefixtures("registered")
async def test_its_panel_key_and_command_work_and_leave_with_it() -> None:
    services = build_services(provider="offline")
    app = new_app(services, profile=QUINTET)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await wait_until(pilot, lambda: _lines(app) == ("greeting: Ahoy", "messages: 0"))

            await send(pilot, "count me in")
            screen = chat(app)
            reply = screen.state.index.get(screen.state.leaf_id or "")
            assert reply.content.startswith("Ahoy: count me in")  # its turn read its setting
            await wait_until(pilot, lambda: _lines(app)[1:] == ("messages: 2",))

            await pilot.press(KEY)
            await settle(pilot)
            said = [n.message for n in app._notifications]
            assert any("2 message(s)" in message for message in said)

            commands = [item.command for item in WeaverCommands(screen)._available()]
            assert "Count the messages" in commands

            screen.switcher.switch_profile()
            await wait_until(pilot, lambda: isinstance(app.screen, ProfilePickerScreen))
            await settle(pilot)
            app.screen.dismiss("ide-helper")
            await settle(pilot)
            assert _lines(app) == ()
            assert "Count the messages" not in [
                item.command for item in WeaverCommands(chat(app))._available()
            ]
            assert KEY not in chat(app)._bindings.key_to_bindings
            assert not isinstance(app.screen, CommandPalette)
    finally:
        services.close_store()
