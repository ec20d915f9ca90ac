"""A screen's widgets are styled once as the screen opens (weaver_tui.screens.chat.styled_at_mount):
Textual's restyle of a whole screen as it first comes on top is skipped (each widget was just
styled as it mounted). How they look is checked by the snapshot tests."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from tests.ui_app.conftest import SIZE, chat, chat_ready, settle
from weaver_tui.app import make_app
from weaver_tui.core.services import Services
from weaver_tui.core.settings.pending import PendingSettings
from weaver_tui.screens.chat_skeleton import ChatSkeleton
from weaver_tui.widgets.chat_header import ChatHeader
from weaver_tui.widgets.footer import WeaverFooter
from weaver_tui.widgets.message_view import MessageView


def _count_stylings(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many times each node (by id) is styled from now on."""
    styled: Counter[int] = Counter()
    real = Stylesheet.apply

    def counting(self: Stylesheet, node: DOMNode, *args: Any, **kwargs: Any) -> None:
        styled[id(node)] += 1
        real(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counting)
    return styled


async def test_the_skeleton_and_the_chat_screen_style_their_widgets_once(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    styled = _count_stylings(monkeypatch)
    services = Services(
        PendingSettings.peek(env_file=None, provider="offline"), configure_logging=False
    )
    app = make_app(services)  # as the CLI builds it: the skeleton first
    try:
        async with app.run_test(size=SIZE) as pilot:
            skeleton = app.screen
            assert isinstance(skeleton, ChatSkeleton)
            first = [skeleton.query_one(ChatHeader), skeleton.query_one(WeaverFooter)]
            await chat_ready(pilot)
            await settle(pilot)
            screen = chat(app)
            unchanged = [
                screen.header,
                screen.query_one(MessageView),
                screen.query_one(WeaverFooter),
            ]
            assert [styled[id(widget)] for widget in first + unchanged] == [1] * 5
    finally:
        services.close_store()
