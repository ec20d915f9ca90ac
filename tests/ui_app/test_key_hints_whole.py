"""A bar's key hint is shown whole or as its key alone, never cut after its first words: at
80 columns the mediator's audience bar reads "F8", at 160 "F8 switch audience"."""

from __future__ import annotations

import re

import pytest
from textual._compositor import LayoutUpdate
from textual.pilot import Pilot

from tests.ui_app.conftest import chat, new_app, settle, wait_until
from weaver_tui.core.services import Services


def screen_lines(pilot: Pilot[None]) -> str:
    update = pilot.app.screen._compositor.render_update(full=True)
    assert isinstance(update, LayoutUpdate)
    return "\n".join("".join(strip.text for strip in line) for line in update.strips)


@pytest.mark.parametrize("width", [80, 100, 160])
async def test_the_audience_hint_is_whole_or_just_its_key(services: Services, width: int) -> None:
    async with new_app(services, profile="mediator").run_test(size=(width, 30)) as pilot:
        screen = chat(pilot.app)
        await wait_until(pilot, lambda: screen.agents_ready)
        await settle(pilot)
        shown = screen_lines(pilot)
        assert "F8" in shown
        for hint in ("F8 switch audience", "F2 switch speaker"):
            words = hint.split()
            for cut in range(2, len(words)):  # a hint stopped after some of its words
                partial = " ".join(words[:cut])
                cut_off = re.escape(partial) + r"(?![ ]" + re.escape(words[cut]) + ")"
                assert not re.search(cut_off, shown), partial
        if width >= 160:
            assert "F8 switch audience" in shown
