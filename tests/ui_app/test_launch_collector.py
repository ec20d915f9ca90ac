"""The cyclic garbage collector, paused for the launch, is resumed only once the chat screen has
drawn the frame that shows what it opened (the last message of a reopened conversation): its
first collection walks the whole freshly imported heap (tens of ms), which
must not land between the swap to the chat screen and the frame that shows the conversation
(opening a long conversation waited for it). Whatever the launch opens (a new chat or a
conversation of any length), the collector is on again after that frame."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from tests.ui_app.conftest import SIZE, chat_ready, wait_until
from tests.ui_app.test_launch_deferred import _pending, _seeded
from weaver_tui.app import WeaverApp, make_app
from weaver_tui.core.heap import pause_collector
from weaver_tui.screens.chat.screen import ChatScreen


@pytest.mark.parametrize("messages", [0, 3, 40])
async def test_the_collector_resumes_after_the_frame_showing_what_was_opened(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch, messages: int
) -> None:
    if messages:
        _seeded(weaver_env, messages, profile="ide-helper")
    services = _pending()
    app = make_app(services)
    last = f"message {messages - 1}"
    shown_frames = 0
    frames_before_resume: list[int] = []
    display = app._display

    def counting(screen: Any, renderable: Any) -> None:
        nonlocal shown_frames
        display(screen, renderable)
        if renderable is not None and isinstance(screen, ChatScreen):
            text = screen.messages.visible_text()
            shown_frames += not messages or any(last in line for line in text)

    real_resume = WeaverApp._resume_gc

    def resume(self: WeaverApp) -> None:
        if not gc.isenabled():
            frames_before_resume.append(shown_frames)
        real_resume(self)

    monkeypatch.setattr(app, "_display", counting)
    monkeypatch.setattr(WeaverApp, "_resume_gc", resume)
    pause_collector()  # as the weaver-tui command does before importing Textual
    try:
        async with app.run_test(size=SIZE) as pilot:
            await chat_ready(pilot)
            await wait_until(pilot, gc.isenabled)
            assert frames_before_resume
            assert frames_before_resume[0] >= 1
    finally:
        gc.enable()
        services.close_store()
