"""The test process parses each stylesheet once for all its apps, per theme
(:mod:`tests.support.shared_stylesheets`, installed by ``tests/conftest.py``)."""

from __future__ import annotations

from typing import ClassVar

import pytest
import textual.css.parse
import textual.css.stylesheet
from textual.app import App, ComposeResult
from textual.color import Color
from textual.theme import Theme
from textual.widgets import Static


class Boxes(App[None]):
    CSS: ClassVar[str] = "Static { background: $primary; height: 3; }"

    def compose(self) -> ComposeResult:
        yield Static("one")


def _counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every stylesheet text Textual's parser reads from now on."""
    parsed: list[str] = []
    real = textual.css.parse.parse

    def counting(scope: str, css: str, *args: object, **kwargs: object) -> object:
        parsed.append(css)
        return real(scope, css, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(textual.css.stylesheet, "parse", counting)
    return parsed


async def _background(app: Boxes, theme: str) -> Color:
    async with app.run_test(size=(20, 5)) as pilot:
        app.theme = theme
        await pilot.pause()
        return app.query_one(Static).styles.background


async def test_a_second_app_parses_no_stylesheet_and_looks_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = await _background(Boxes(), "textual-dark")
    parsed = _counting_parses(monkeypatch)
    assert await _background(Boxes(), "textual-dark") == first
    assert parsed == []


async def test_another_theme_gets_rules_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    dark = await _background(Boxes(), "textual-dark")
    parsed = _counting_parses(monkeypatch)
    app = Boxes()
    app.register_theme(Theme(name="only-in-this-test", primary="#123456"))
    assert await _background(app, "only-in-this-test") == Color.parse("#123456") != dark
    assert any("$primary" in css for css in parsed)
