"""The attach dialog lists the project's file names as they are printable: a name holding an
escape sequence (OSC 52, a screen clear), a C1 control, a bidi override or bytes that are not
UTF-8 reaches the screen without one control character or raw override, whatever the name
(generated names in a real folder, the real app and its real dropdown)."""

from __future__ import annotations

import html
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Input

from tests.ui_app.conftest import SIZE, chat_ready, new_app, settle
from tests.ui_app.test_control_sequences import controls_in
from weaver_tui.core.services import Services
from weaver_tui.screens.attach_file import AttachFileScreen

INJECTED = ["\x1b]52;c;eA==\x07", "\x1b[2J", "\x9b31m", "\x9d0;t\x9c", "\u202e", "\u2066",
            "\x07", "\x08", "\r", "\x7f", "\udcff"]  # fmt: skip
names = st.lists(
    st.sampled_from(INJECTED) | st.text(alphabet=st.characters(min_codepoint=0x20), max_size=5),
    min_size=1,
    max_size=4,
).map(lambda parts: "n" + "".join(parts).replace("/", "_") + ".txt")


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(chosen=st.lists(names, min_size=1, max_size=4, unique=True))
async def test_project_file_names_in_the_dropdown_are_printable(
    services: Services, tmp_path: Path, chosen: list[str]
) -> None:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    for old in root.iterdir():
        old.unlink()
    for name in chosen:
        if len(os.fsencode(name)) < 200:
            (root / name).write_bytes(b"hi")
    async with new_app(services).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        pilot.app.push_screen(AttachFileScreen(root))
        await settle(pilot)
        pilot.app.screen.query_one(Input).focus()
        await pilot.press("n")
        await settle(pilot)
        svg = pilot.app.export_screenshot()
    assert controls_in(svg) == []
    shown = html.unescape(svg)
    assert "\u202e" not in shown
    assert "\u2066" not in shown
