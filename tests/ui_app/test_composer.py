"""The composer: Enter sends, Ctrl+J (or Shift+Enter) breaks the line, blank is not sent."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult

from themes.weaver import ROLE_VARIABLE_DEFAULTS
from weaver_tui.widgets.composer import Composer


class ComposerHost(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, str]] = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(ROLE_VARIABLE_DEFAULTS)

    def compose(self) -> ComposeResult:
        yield Composer()

    def on_composer_submitted(self, event: Composer.Submitted) -> None:
        self.sent.append((event.text, event.speaker))


async def test_enter_sends_and_newline_keys_break_the_line() -> None:
    app = ComposerHost()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        composer.focus()
        await pilot.press("enter", "space", "enter")
        assert app.sent == []  # nothing but whitespace
        composer.clear()
        await pilot.press("a", "ctrl+j", "b", "shift+enter", "c")
        assert composer.text == "a\nb\nc"
        await pilot.press("enter")
        await pilot.pause()
        assert app.sent == [("a\nb\nc", "You")]
        assert composer.text == ""


async def test_speaker_and_hint_show_in_the_border() -> None:
    app = ComposerHost()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        composer.speaker = "Sam"
        composer.hint = "editing v1/2"
        composer.set_draft("old words")
        await pilot.pause()
        assert composer.border_title == "Sam"
        assert composer.border_subtitle == "editing v1/2"
        assert composer.text == "old words"
        assert composer.has_focus
        await pilot.press("enter")
        await pilot.pause()
        assert app.sent == [("old words", "Sam")]


async def test_keys_that_arrive_together_apply_in_order() -> None:
    """Editing keys run where they were typed, even when the keys come in one burst (typing
    while a reply streams): Textual would run the bound ones after the printable ones."""
    app = ComposerHost()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        composer.focus()

        async def burst(*keys: str) -> None:
            for key in keys:
                character = key if len(key) == 1 else None
                app.post_message(events.Key(key, character))
            await pilot.pause()
            await pilot.pause()

        await burst(*"hello", "backspace", "backspace", "p")
        assert composer.text == "help"
        await burst("ctrl+u", *"new")
        assert composer.text == "new"
        await burst("left", "left", "left", "x", "end", "y")
        assert composer.text == "xnewy"
        await burst(*"hi!", "backspace", "enter")
        assert app.sent == [("xnewyhi", "You")]
        assert composer.text == ""


async def test_a_paste_over_the_message_limit_is_refused_whole() -> None:
    app = ComposerHost()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        composer.max_bytes = 1_000
        composer.focus()
        await composer._on_paste(events.Paste("small paste"))  # as the driver delivers it
        await pilot.pause()
        assert composer.text == "small paste"
        await composer._on_paste(events.Paste("x" * 5_000))
        await pilot.pause()
        assert composer.text == "small paste"  # nothing of the big paste went in
        assert any("max_message_bytes" in n.message for n in app._notifications)


async def test_a_paste_goes_in_once() -> None:
    app = ComposerHost()
    async with app.run_test() as pilot:
        composer = app.query_one(Composer)
        composer.focus()
        await pilot.pause()
        app.post_message(events.Paste("pasted"))  # as the driver delivers it, to the app
        await pilot.pause()
        assert composer.text == "pasted"
