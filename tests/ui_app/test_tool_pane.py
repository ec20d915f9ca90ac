"""The tool-status pane on its own: rows per call and stage, errors, expansion, usage."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from themes.weaver import ROLE_VARIABLE_DEFAULTS
from weaver_tui.widgets.tool_pane import ToolRow, ToolStatusPane, format_duration, short_args


class PaneHost(App[None]):
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(ROLE_VARIABLE_DEFAULTS)

    def compose(self) -> ComposeResult:
        yield ToolStatusPane()


def preview_of(row: ToolRow) -> str:
    return str(row.query_one(".row-preview", Static).content)


async def test_rows_show_calls_stages_errors_and_expand() -> None:
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.tool_started("c1", "read_file", {"path": "src/app.py", "start_line": 3})
        pane.stage("validate", "Running compliance tests ...", "running")
        await pilot.pause()
        first, stage = pane.rows
        assert first.state == "running" and "path=src/app.py" in first.detail
        assert stage.state == "running" and stage.kind == "stage"
        output = "\n".join(f"line {n}" for n in range(30))
        pane.tool_finished("c1", "read_file", output, None, 12.0)
        pane.stage("validate", "Compliance tests passed", "done")
        pane.tool_finished("c2", "search_code", "", "The pattern is not valid.", 3.0)
        await pilot.pause()
        first, stage, failed = pane.rows
        assert first.state == "done" and preview_of(first) == "line 0\n… 29 more lines (Enter)"
        assert stage.state == "done" and stage.tool_name == "Compliance tests passed"
        assert failed.state == "error" and failed.has_class("-error")
        assert preview_of(failed) == "The pattern is not valid."
        first.focus()
        await pilot.press("enter")
        assert first.expanded and preview_of(first).startswith("line 0\nline 1\n")
        pane.set_usage(120, 30, 1500)
        await pilot.pause()
        assert str(pane.query_one("#tool-usage", Static).content) == "120 in · 30 out · 1.5 s"
        await pane.new_turn()
        assert pane.rows == []


def test_short_args_and_durations_stay_short() -> None:
    line = short_args({"query": "x" * 100, "max_results": 50, "regex": True}, width=40)
    assert len(line) <= 40 and line.startswith("query=xxx") and line.endswith("…")
    assert format_duration(12.4) == "12 ms"
    assert format_duration(1540) == "1.5 s"
    assert format_duration(125_000) == "2 m 05 s"


async def test_a_spinner_tick_redraws_the_title_without_a_layout() -> None:
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.stage("agent", "Writing the answer", "running")
        await pilot.pause()
        (row,) = pane.rows
        title = row.query_one(".row-title", Static)
        layouts: list[bool] = []
        real = title.update

        def recording(content: object = "", *, layout: bool = True) -> None:
            layouts.append(layout)
            real(content, layout=layout)  # type: ignore[arg-type]

        title.update = recording  # type: ignore[method-assign]
        for frame in range(1, 4):
            row.redraw(frame)
        assert layouts == [False, False, False]
        row.finish("done", "", 2500.0)  # the mark and a duration: a longer line
        assert layouts[-1] is True
        assert str(title.content).startswith("✓ Writing the answer")


async def test_a_long_tool_name_gives_way_to_its_duration_and_nothing_wraps() -> None:
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.tool_started("c1", "search_knowledge_base", {"query": "Compare ReWOO and ReAct"})
        await pilot.pause()
        pane.tool_finished("c1", "search_knowledge_base", "[rewoo#Idea] ...", None, 6.0)
        await pilot.pause()
        (row,) = pane.rows
        title = row.query_one(".row-title", Static)
        lines = title.render_lines(title.region.reset_offset)  # what the pane draws
        texts = [strip.text.rstrip() for strip in lines]
        assert texts == ["✓ search_knowledge_b…  6 ms", "  query=Compare ReWOO and…"]
        assert all(len(text) <= title.content_size.width for text in texts)
