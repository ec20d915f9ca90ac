"""The chat header's one line: fields, the title's share of the width, the badge colours."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from weaver_tui.widgets.chat_header import BranchPosition, ChatHeader


class HeaderApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ChatHeader()


def line(header: ChatHeader) -> Text:
    rendered = header.render()
    assert isinstance(rendered, Text)
    return rendered


async def test_fields_in_order_and_the_title_fills_the_line() -> None:
    app = HeaderApp()
    async with app.run_test(size=(80, 5)):
        header = app.query_one(ChatHeader)
        header.profile, header.title = "ide-helper", "Refactor"
        header.branch = BranchPosition(2, 3, 7)
        text = line(header).plain
        assert len(text) == 80
        assert text.startswith(" ide-helper  Refactor ")
        assert text.endswith(" branch 2/3 · depth 7  offline ")
        assert "in " not in text and "replying" not in text

        header.project, header.busy = "weaver", "replying"
        text = line(header).plain
        assert len(text) == 80
        assert text.index(" in weaver ") < text.index(" replying ") < text.index(" branch 2/3")


async def test_a_long_title_is_cut_and_the_badges_stay_whole() -> None:
    app = HeaderApp()
    async with app.run_test(size=(40, 5)):
        header = app.query_one(ChatHeader)
        header.profile, header.title = "mediator", "A very long conversation title " * 3
        header.provider, header.model = "openai", "gpt-4o-mini"
        text = line(header).plain
        assert len(text) == 40
        assert text.endswith(" openai · gpt-4o-mini ")
        assert text.startswith(" mediator  A ") and " new " in text


async def test_wide_characters_are_measured_in_cells() -> None:
    app = HeaderApp()
    async with app.run_test(size=(50, 5)):
        header = app.query_one(ChatHeader)
        header.profile, header.title = "paper-pilot", "预算讨论" * 10
        assert line(header).cell_len == 50


async def test_no_branch_position_hides_it() -> None:
    app = HeaderApp()
    async with app.run_test(size=(80, 5)):
        header = app.query_one(ChatHeader)
        assert " new " in line(header).plain
        header.branch = None
        assert " new " not in line(header).plain


async def test_the_badge_colour_says_offline_or_a_provider() -> None:
    app = HeaderApp()
    async with app.run_test(size=(80, 5)):
        header = app.query_one(ChatHeader)

        def badge_style() -> object:
            rendered = line(header)
            start = rendered.plain.rindex(f" {header.model_text} ")
            return next(span.style for span in rendered.spans if span.start == start)

        assert badge_style() == header.get_component_rich_style("header--offline")
        header.provider, header.model = "deepseek", "deepseek-chat"
        assert badge_style() == header.get_component_rich_style("header--model")
        assert badge_style() != header.get_component_rich_style("header--offline")
