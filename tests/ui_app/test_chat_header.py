"""The chat header's one line: fields, the title's share of the width, the badge colours."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from weaver_tui.core.branch_position import BranchPosition
from weaver_tui.widgets.chat_header import ChatHeader


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
        assert "in " not in text
        assert "replying" not in text

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
        # the provider's name, then the branch position give way to the title's first words
        assert text.endswith(" gpt-4o-mini ")
        assert " new " not in text
        assert text.startswith(" mediator  A very long… ")


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


LONG_TITLE = "Refactor the storage layer to use a write-behind queue"
LONG_MODEL = ("openai-compatible", "deepseek-ai/DeepSeek-V3.1-Terminus")


def busy_header(header: ChatHeader) -> None:
    header.profile, header.title = "ide-helper", LONG_TITLE
    header.project, header.busy = "weaver-tui-project", "replying"
    header.branch = BranchPosition(2, 3, 17)
    header.provider, header.model = LONG_MODEL


async def fitted(width: int) -> tuple[str, list[str]]:
    """The header line at ``width`` columns, and the fields it shows."""
    app = HeaderApp()
    async with app.run_test(size=(width, 5)):
        header = app.query_one(ChatHeader)
        busy_header(header)
        text = line(header).plain
        return text, [part.strip() for part, _ in header.shown()]


def whole_words_of(shown: str, full: str) -> bool:
    """``shown`` is ``full``, or its first whole words and an ellipsis (or nothing)."""
    if shown in (full, ""):
        return True
    words = shown.removesuffix("…").split()
    return shown.endswith("…") and full.split()[: len(words)] == words


async def test_a_full_header_fits_80_100_and_120_columns_dropping_whole_fields() -> None:
    full = {
        "profile": "ide-helper",
        "project": "in weaver-tui-project",
        "busy": "replying",
        "branch": "branch 2/3 · depth 17",
        "model": "openai-compatible · deepseek-ai/DeepSeek-V3.1-Terminus",
    }
    seen: dict[int, list[str]] = {}
    for width in (80, 100, 120):
        text, fields = await fitted(width)
        assert len(text) == width, width
        # what matters most is always there, whole
        assert fields[0] == "ide-helper"
        assert text.startswith(" ide-helper ")
        assert "replying" in fields
        assert len(fields[1]) >= 8  # the title keeps a few words
        assert fields[-1] in (full["model"], "deepseek-ai/DeepSeek-V3.1-Terminus")
        assert text.rstrip().endswith(fields[-1])
        # every other field is shown whole (or in its short form) or not at all
        title = fields[1]
        assert whole_words_of(title, LONG_TITLE), (width, title)
        for field in fields[2:-1]:
            assert field in (*full.values(), "branch 2/3"), (width, field)
        seen[width] = fields
    # the wider the terminal, the more is shown: at 120 the provider and the branch's depth
    assert seen[120][-1] == full["model"]
    assert full["branch"] in seen[120]
    assert seen[80][-1] != full["model"]
    assert not {"branch 2/3", full["branch"]} & set(seen[80])
    assert len(" ".join(seen[80])) < len(" ".join(seen[100])) <= len(" ".join(seen[120]))


@pytest.mark.parametrize("width", [80, 100, 120])
def test_header_snapshot_at_width(snap_compare, width: int) -> None:  # type: ignore[no-untyped-def]
    async def fill(pilot) -> None:  # type: ignore[no-untyped-def]
        busy_header(pilot.app.query_one(ChatHeader))
        await pilot.pause()

    assert snap_compare(HeaderApp(), terminal_size=(width, 3), run_before=fill)
