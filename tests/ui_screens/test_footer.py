"""The footer recomposes only when the keys it shows change (weaver_tui.widgets.footer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import pytest
from textual._compositor import LayoutUpdate
from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from weaver_tui.widgets.footer import WeaverFooter


class FooterApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "new", "New"),
        Binding("ctrl+r", "retry", "Retry"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.can_retry = False
        self.offers_new = True
        self.recomposes = 0

    def compose(self) -> ComposeResult:
        yield Input()
        yield Input()
        yield WeaverFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "retry":
            return True if self.can_retry else None  # None: shown, disabled
        if action == "new":
            return self.offers_new  # False: not shown
        return True

    def action_new(self) -> None: ...

    def action_retry(self) -> None: ...


def _count_recomposes(app: FooterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the footer's real rebuilds (Textual's ``Widget.recompose`` run for it)."""
    footer = app.query_one(WeaverFooter)
    real = Widget.recompose

    async def counting(self: Widget) -> None:
        if self is footer:
            app.recomposes += 1
        await real(self)

    monkeypatch.setattr(Widget, "recompose", counting)


async def test_refreshes_that_change_nothing_do_not_rebuild_the_footer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        keys = {key.description: key for key in app.query(FooterKey)}
        assert set(keys) >= {"New", "Retry"}
        _count_recomposes(app, monkeypatch)
        for _ in range(5):
            app.refresh_bindings()
        app.query(Input).last().focus()
        await pilot.pause()
        await pilot.pause()
        assert app.recomposes == 0
        assert {key.description: key for key in app.query(FooterKey)} == keys  # same widgets


async def test_a_key_that_becomes_enabled_is_lit_in_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        retry = next(key for key in app.query(FooterKey) if key.description == "Retry")
        assert retry.has_class("-disabled")
        _count_recomposes(app, monkeypatch)
        app.can_retry = True
        for _ in range(3):
            app.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert app.recomposes == 0
        assert next(k for k in app.query(FooterKey) if k.description == "Retry") is retry
        assert not retry.has_class("-disabled")
        assert not retry._disabled
        app.can_retry = False
        app.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert retry.has_class("-disabled")
        assert retry._disabled
        assert app.recomposes == 0


def _footer_row(app: FooterApp) -> str:
    """The footer's row as drawn on the screen."""
    update = app.screen._compositor.render_update(full=True)
    assert isinstance(update, LayoutUpdate)
    return "".join(strip.text for strip in update.strips[-1])


async def _until(pilot: Pilot[None], holds: Callable[[], bool]) -> None:
    """Let the app run until ``holds()`` (bounded by a generous number of pauses)."""
    for _ in range(500):
        if holds():
            return
        await pilot.pause()
    raise AssertionError("the footer never showed what was expected")


def _shown(app: FooterApp) -> list[str]:
    return [key.description for key in app.query(FooterKey) if key.display]


async def _rebuild(app: FooterApp) -> None:
    """Rebuild the footer from scratch (Textual's own recompose, from the footer's queue as
    its keys bind to it)."""
    footer = app.query_one(WeaverFooter)
    with footer._context():
        await Widget.recompose(footer)


async def test_a_key_that_goes_is_hidden_and_shows_again_in_place_without_a_rebuild(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Keys that come and go (Esc while a reply is written) are hidden and shown again, the
    row drawn as a rebuilt footer draws it, instead of the whole row rebuilt each time."""
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await _until(pilot, lambda: "New" in _footer_row(app))
        with_new = _footer_row(app)
        keys = {key.description: key for key in app.query(FooterKey)}
        _count_recomposes(app, monkeypatch)
        app.can_retry = True
        app.offers_new = False  # a key goes, another is lit
        for _ in range(3):
            app.refresh_bindings()
        await _until(pilot, lambda: "New" not in _footer_row(app))
        assert app.recomposes == 0
        assert {key.description: key for key in app.query(FooterKey)} == keys  # same widgets
        assert not keys["New"].display
        assert not keys["Retry"].has_class("-disabled")
        without_new = _footer_row(app)
        app.can_retry = False
        app.offers_new = True  # it comes back
        app.refresh_bindings()
        await _until(pilot, lambda: _footer_row(app) == with_new)
        assert app.recomposes == 0
        assert keys["New"].display
        app.can_retry = True
        app.offers_new = False
        app.refresh_bindings()
        await _until(pilot, lambda: _footer_row(app) == without_new)
        await _rebuild(app)
        await pilot.pause()
        assert len(app.query(FooterKey)) < len(keys)  # rebuilt: no hidden key
        assert _footer_row(app) == without_new


async def test_a_key_shown_for_the_first_time_is_mounted_in_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = FooterApp()
    app.offers_new = False
    async with app.run_test(size=(80, 10)) as pilot:
        await _until(pilot, lambda: "Retry" in _shown(app))
        retry = next(key for key in app.query(FooterKey) if key.description == "Retry")
        _count_recomposes(app, monkeypatch)
        app.offers_new = True
        app.refresh_bindings()
        await _until(pilot, lambda: "New" in _footer_row(app))
        assert app.recomposes == 0
        assert _shown(app)[:2] == ["New", "Retry"]  # in the order the bindings give
        assert next(key for key in app.query(FooterKey) if key.description == "Retry") is retry
        row = _footer_row(app)
        await _rebuild(app)
        await pilot.pause()
        assert retry not in app.query(FooterKey)  # rebuilt
        assert _footer_row(app) == row


async def test_keys_that_come_and_go_again_and_again_keep_one_palette_key() -> None:
    """The palette's key (not bound to the footer's ``compact``, so it takes ``-compact`` as
    it mounts) is the same key after keys come and go, not a new one mounted over it each
    time: the footer keeps the widgets it had."""
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await _until(pilot, lambda: "New" in _footer_row(app))
        with_new = _footer_row(app)
        keys = set(app.query(FooterKey))
        for _ in range(3):
            app.offers_new = False
            app.refresh_bindings()
            await _until(pilot, lambda: "New" not in _footer_row(app))
            app.offers_new = True
            app.refresh_bindings()
            await _until(pilot, lambda: _footer_row(app) == with_new)
        assert set(app.query(FooterKey)) == keys
        palette = [key for key in app.query(FooterKey) if key.has_class("-command-palette")]
        assert len(palette) == 1


async def test_new_keys_mount_with_their_final_style(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rebuilt footer's keys are built with the footer's ``compact``: none restyles itself
    as it mounts (the palette's key, not bound to it, keeps its own)."""
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await _until(pilot, lambda: "New" in _shown(app))
        restyled: list[FooterKey] = []
        real = App.update_styles

        def recording(self: App[None], node: DOMNode, animate: bool = True) -> None:
            if isinstance(node, FooterKey) and not node.has_class("-command-palette"):
                restyled.append(node)
            real(self, node, animate)

        monkeypatch.setattr(App, "update_styles", recording)
        app.offers_new = False
        await _rebuild(app)  # every key mounts anew
        await pilot.pause()
        keys = list(app.query(FooterKey))
        assert [key.description for key in keys if key.description == "Retry"] == ["Retry"]
        assert restyled == []
        palette = [key for key in keys if key.has_class("-command-palette")]
        assert palette
        assert all(key.has_class("-compact") for key in palette)
        assert not any(key.has_class("-compact") for key in keys if key not in palette)


async def test_a_check_that_finds_nothing_new_reads_the_bindings_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each reading of the screen's active bindings asks every binding's ``check_action``."""
    app = FooterApp()
    async with app.run_test(size=(30, 10)) as pilot:  # narrow: the short labels are checked
        await pilot.pause()
        footer = app.query_one(WeaverFooter)
        readings = 0
        real = Screen.active_bindings

        def counting(screen: Screen[object]) -> dict[str, ActiveBinding]:
            nonlocal readings
            readings += 1
            return real.fget(screen)  # type: ignore[attr-defined, no-any-return]

        monkeypatch.setattr(Screen, "active_bindings", property(counting))
        await footer.recompose()
        assert readings == 1
