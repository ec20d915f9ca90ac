"""Host apps for the profile screens and panels, a real project folder, and a real space.

The hosts carry weaver's own themes (as ``WeaverApp`` does), run at a fixed 100x30, and
record what they are told: the result a screen is dismissed with, and every message the
panels post.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import TextArea

from agents.patch_review.patches import Patch, make_patch
from storage.models import MessageRecord
from storage.sqlite_store import SqliteConversationStore
from themes.weaver import DEFAULT_THEME, ROLE_VARIABLE_DEFAULTS, WEAVER_THEMES
from weaver_tui.profile_panels import items_for_view
from weaver_tui.widgets.channel_tabs import ChannelTabs
from weaver_tui.widgets.message_view import MessageView
from weaver_tui.widgets.space_panel import SpacePanel
from weaver_tui.widgets.speaker_bar import AudienceBar, SpeakerBar

SIZE = (100, 30)

APP_PY = '''"""A tiny app."""


def greet(name: str) -> str:
    return f"Hello, {name}!"


def farewell(name: str) -> str:
    return f"Goodbye, {name}!"
'''


class ThemedApp(App[None]):
    """weaver's themes registered, the default one on: what ``WeaverApp`` starts with."""

    def __init__(self, theme: str = DEFAULT_THEME) -> None:
        super().__init__()
        for item in WEAVER_THEMES:
            self.register_theme(item)
        self.theme = theme

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(ROLE_VARIABLE_DEFAULTS)


class ScreenHost(ThemedApp):
    """Pushes ``make_screen()`` at start and keeps every result it is dismissed with."""

    def __init__(self, make_screen: Callable[[], Screen[Any]], theme: str = DEFAULT_THEME) -> None:
        super().__init__(theme)
        self._make_screen = make_screen
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self._make_screen(), self.results.append)


class PanelHost(ThemedApp):
    """A chat-like layout: a message view, a profile panel and a focused composer.

    The screen-level ``f2`` / ``f3`` / ``f8`` bindings call the panel as the chat screen will (the
    composer has the focus). With ``space``, a view change shows the records that view's
    reader may read (read through the store's viewer filter) through :func:`items_for_view`,
    as the chat screen does.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "cycle_speaker", "Switch speaker", priority=True),
        Binding("f3", "cycle_view", "Switch view", priority=True),
        Binding("f8", "cycle_audience", "Switch audience", priority=True),
    ]

    CSS = "#messages { height: 1fr; } #composer { height: 3; }"

    def __init__(
        self,
        panel: Widget,
        space: Space | None = None,
    ) -> None:
        super().__init__()
        self.panel = panel
        self.space = space
        self.posted: list[tuple[str, str | None]] = []

    def compose(self) -> ComposeResult:
        yield MessageView(id="messages")
        yield self.panel
        composer = TextArea(id="composer")
        composer.cursor_blink = False
        yield composer

    def on_mount(self) -> None:
        self.query_one("#composer").focus()
        self.show_view(None)

    def show_view(self, view: str | None) -> None:
        if self.space is not None:
            items = items_for_view(self.space.read(view), view, self.space.participants)
            self.query_one(MessageView).set_messages(items)

    def action_cycle_speaker(self) -> None:
        assert isinstance(self.panel, SpacePanel)
        self.panel.cycle_speaker()

    def action_cycle_audience(self) -> None:
        assert isinstance(self.panel, SpacePanel)
        self.panel.cycle_audience()

    def action_cycle_view(self) -> None:
        assert isinstance(self.panel, SpacePanel)
        self.panel.cycle_view()

    def on_speaker_bar_speaker_changed(self, event: SpeakerBar.SpeakerChanged) -> None:
        self.posted.append(("speaker", event.name))

    def on_audience_bar_audience_changed(self, event: AudienceBar.AudienceChanged) -> None:
        self.posted.append(("shared", "yes" if event.shared else "no"))

    def on_channel_tabs_view_changed(self, event: ChannelTabs.ViewChanged) -> None:
        self.posted.append(("view", event.view))
        self.show_view(event.view)


def write(root: Path, rel: str, content: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8", newline="")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write(root, "src/app.py", APP_PY)
    return root


@pytest.fixture
def patch(project: Path) -> Patch:
    """Lines 4-5 of ``src/app.py`` (``greet``) rewritten; the id fixed for the pictures."""
    made = make_patch(
        project,
        "src/app.py",
        4,
        5,
        'def greet(name: str, punctuation: str = "!") -> str:\n'
        '    """Say hello to ``name``."""\n'
        '    return f"Hello, {name}{punctuation}"\n',
    )
    return dataclasses.replace(made, id="p-0a1b2c3d")


ALEX_SAYS = "I'm worried Sam spends too much on takeaway."
ALEX_REPLY = "Thank you for telling me, Alex. Let's look at the numbers first."
SHARED_POST = "Let's each list our fixed monthly costs."
CLOSING_NOTE = "Answered Alex, asked both for costs."
SAM_SAYS = "Rent is 1,200 and the car is 300."
SAM_REPLY = "Thanks, Sam. That is a clear start."


@dataclasses.dataclass
class Space:
    """A mediator path in a real store: records root first, who took part, and what each
    reader's view read of the path through the store's viewer filter."""

    records: list[MessageRecord]
    participants: tuple[str, ...]
    readers: dict[str, list[MessageRecord]]
    """``path_to_root(leaf, viewer)`` by viewer (each participant and ``"shared"``)."""

    def read(self, view: str | None) -> list[MessageRecord]:
        """The records a view is handed: all of them, or what the store gave its reader."""
        if view is None:
            return self.records
        return self.readers.get(" ".join(view.split()).lower(), [])


def _deliver(
    store: SqliteConversationStore,
    conversation_id: str,
    parent: MessageRecord,
    calls: list[tuple[str, str, dict[str, str]]],
) -> MessageRecord:
    """An assistant tool-call record and its results, with the meta the runtime keeps."""
    call_record = store.add_message(
        conversation_id,
        "assistant",
        "",
        parent.id,
        meta={"tool_calls": [{"id": i, "name": n, "args": a} for i, n, a in calls]},
    )
    leaf = call_record
    for call_id, name, args in calls:
        visibility = args.get("recipient", "shared")
        leaf = store.add_message(
            conversation_id,
            "tool",
            f"Delivered to {visibility}.",
            leaf.id,
            meta={
                "tool_call_id": call_id,
                "name": name,
                "visibility": visibility,
                "delivered_by": name,
                "delivered_content": args["content"],
            },
        )
    return leaf


def build_space(store: SqliteConversationStore) -> Space:
    """Alex speaks privately, the mediator answers Alex privately and posts to both; Sam
    speaks in the shared space and gets a private reply."""
    conv = store.create_conversation("mediator", "Budget", meta={"participants": ["Alex", "Sam"]})
    alex = store.add_message(
        conv.id, "user", ALEX_SAYS, None,
        meta={"sender": "Alex", "visibility": "Alex"},
    )  # fmt: skip
    leaf = _deliver(
        store,
        conv.id,
        alex,
        [
            ("c1", "reply_privately", {"recipient": "Alex", "content": ALEX_REPLY}),
            ("c2", "post_to_shared", {"content": SHARED_POST}),
        ],
    )
    done = store.add_message(conv.id, "assistant", CLOSING_NOTE, leaf.id)
    sam = store.add_message(
        conv.id, "user", SAM_SAYS, done.id, meta={"sender": "Sam", "visibility": "shared"}
    )
    leaf = _deliver(
        store, conv.id, sam, [("c3", "reply_privately", {"recipient": "Sam", "content": SAM_REPLY})]
    )
    readers = {v.lower(): store.path_to_root(leaf.id, v) for v in ("Alex", "Sam", "shared")}
    return Space(store.path_to_root(leaf.id), ("Alex", "Sam"), readers)


@pytest.fixture
def space(tmp_path: Path) -> Iterator[Space]:
    """:func:`build_space` in a real SQLite store on ``tmp_path``."""
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        yield build_space(store)
