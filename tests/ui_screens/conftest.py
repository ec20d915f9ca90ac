"""A host app that pushes one screen and keeps what it dismisses with; a real store to list."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen

import storage.branches
import storage.conversations
import storage.sqlite_store
from storage.sqlite_store import SqliteConversationStore

SCREEN_SIZE = (100, 30)


class ScreenHost(App[None]):
    """Pushes ``make_screen()`` at start and records every result it is dismissed with."""

    def __init__(self, make_screen: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self._make_screen = make_screen
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self._make_screen(), self.results.append)


class Clock:
    """The time the store writes: fixed until a test moves it, so pictures never change."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)

    def text(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """Store timestamps from a :class:`Clock`, shown in UTC."""
    clock = Clock()
    now_text = clock.text

    for module in (storage.branches, storage.conversations, storage.sqlite_store):
        monkeypatch.setattr(module, "now_text", now_text)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield clock
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def store(tmp_path: Path, fixed_clock: Clock) -> Iterator[SqliteConversationStore]:
    """Three conversations (oldest first); the second has a fork whose side branch says "zebra"."""
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        first = store.create_conversation("ide-helper", "Reading the parser")
        question = store.add_message(first.id, "user", "Where is the parser?", None)
        store.add_message(first.id, "assistant", "In src/parser.py.", question.id)

        fixed_clock.advance(hours=1, minutes=15)
        second = store.create_conversation("mediator", "Budget talk")
        ask = store.add_message(second.id, "user", "How do we share costs?", None)
        side = store.add_message(second.id, "assistant", "Split by zebra stripes.", ask.id)
        main = store.add_message(second.id, "assistant", "Split by income.", ask.id)
        store.set_active_leaf(second.id, main.id)
        assert side.version == 1
        assert main.version == 2

        fixed_clock.advance(days=2, minutes=3)
        third = store.create_conversation("paper-pilot", "Literature review")
        store.add_message(third.id, "user", "Find papers on graphs", None)
        yield store
