"""The tool-status pane on its own: rows per call and stage, errors, expansion, usage."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from agents.runtime.events import Usage
from themes.weaver import ROLE_VARIABLE_DEFAULTS
from weaver_tui.widgets.tool_output_dialog import ToolOutputScreen
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
        assert first.state == "running"
        assert "path=src/app.py" in first.detail
        assert stage.state == "running"
        assert stage.kind == "stage"
        output = "\n".join(f"line {n}" for n in range(30))
        pane.tool_finished("c1", "read_file", output, None, 12.0)
        pane.stage("validate", "Compliance tests passed", "done")
        pane.tool_finished("c2", "search_code", "", "The pattern is not valid.", 3.0)
        await pilot.pause()
        first, stage, failed = pane.rows
        folded = "line 0\nline 1\nline 2\nline 3\nline 4\n… 25 more lines (Enter)"
        assert first.state == "done"
        assert preview_of(first) == folded
        assert stage.state == "done"
        assert stage.tool_name == "Compliance tests passed"
        assert failed.state == "error"
        assert failed.has_class("-error")
        assert preview_of(failed) == "The pattern is not valid."
        first.focus()
        await pilot.press("enter")  # the whole output, in a dialog
        assert isinstance(app.screen, ToolOutputScreen)
        assert str(app.screen.query_one("#tool-output-text", Static).content) == output
        await pilot.press("escape")
        assert not isinstance(app.screen, ToolOutputScreen)
        pane.set_usage(Usage(120, 30, 150), 1500)
        await pilot.pause()
        assert str(pane.query_one("#tool-usage", Static).content) == "120 in · 30 out · 1.5 s"
        pane.set_usage(Usage(120, 30, 150, cached_tokens=96, reasoning_tokens=11, cost=0.25), None)
        await pilot.pause()
        shown = str(pane.query_one("#tool-usage", Static).content)
        assert all(number in shown for number in ("120", "96", "30", "11", "0.25")), shown
        await pane.new_turn()
        assert pane.rows == []


async def test_a_stage_that_runs_again_gets_a_row_of_its_own_in_order() -> None:
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.stage("validate", "Running compliance tests ...", "running")
        pane.stage("validate", "1 error: forbidden import 'os'", "error")
        pane.stage("reflect", "Fixing (fix 1 of 3)", "running")
        pane.stage("reflect", "fix 1: code rewritten", "done")
        pane.stage("validate", "Running compliance tests ...", "running")
        await pilot.pause()
        assert [(r.stage_node, r.state) for r in pane.rows] == [
            ("validate", "error"), ("reflect", "done"), ("validate", "running")
        ]  # fmt: skip
        pane.stage("validate", "all levels passed", "done")  # the running row is updated
        await pilot.pause()
        assert [r.tool_name for r in pane.rows][-1] == "all levels passed"
        assert len(pane.rows) == 3
        assert len({r.key for r in pane.rows}) == 3


def test_short_args_and_durations_stay_short() -> None:
    line = short_args({"query": "x" * 100, "max_results": 50, "regex": True}, width=40)
    assert len(line) <= 40
    assert line.startswith("query=xxx")
    assert line.endswith("…")
    assert format_duration(12.4) == "12 ms"
    assert format_duration(1540) == "1.5 s"
    assert format_duration(125_000) == "2 m 05 s"


def record_updates(widget: Static) -> list[bool]:
    """From now on, the ``layout`` flag of each ``update`` of ``widget`` (it still updates)."""
    layouts: list[bool] = []
    real = widget.update

    def recording(content: object = "", *, layout: bool = True) -> None:
        layouts.append(layout)
        real(content, layout=layout)  # type: ignore[arg-type]

    widget.update = recording  # type: ignore[method-assign]
    return layouts


async def test_a_spinner_tick_redraws_the_title_without_a_layout() -> None:
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.stage("agent", "Writing the answer", "running")
        await pilot.pause()
        (row,) = pane.rows
        title = row.query_one(".row-title", Static)
        layouts = record_updates(title)
        for frame in range(1, 4):
            row.redraw(frame)
        assert layouts == [False, False, False]
        row.finish("done", "", 2500.0)  # the mark and a duration: a longer line
        assert layouts[-1] is True
        assert str(title.content).startswith("✓ Writing the answer")


async def test_the_preview_lays_the_screen_out_again_only_for_another_number_of_lines() -> None:
    """A resize redraws the row with the same output: the preview is left as it is; a new
    output of as many lines is drawn in place; one with more lines takes more room."""
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.tool_finished("c1", "read_file", "one\ntwo", None, 4.0)
        await pilot.pause()
        (row,) = pane.rows
        preview = row.query_one(".row-preview", Static)
        updates = record_updates(preview)
        row.on_resize()
        assert updates == []
        row.finish("done", "uno\ndos", 5.0)
        assert updates == [False]
        row.finish("done", "uno\ndos\ntres", 6.0)
        assert updates == [False, True]
        await pilot.pause()
        assert preview_of(row) == "uno\ndos\ntres"
        assert preview.region.height == 3


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


def listing(count: int) -> str:
    """What list_files returns for a big project: a count, then one path per line."""
    return f"{count} files\n" + "\n".join(f"src/module_{n:03}.py" for n in range(count))


async def test_a_long_result_shows_its_first_lines_and_opens_whole_on_a_click() -> None:
    app = PaneHost()
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.query_one(ToolStatusPane)
        pane.tool_started("c1", "list_files", {"directory": "."})
        pane.tool_finished("c1", "list_files", listing(372), None, 40.0)
        await pilot.pause()
        (row,) = pane.rows
        preview = preview_of(row).splitlines()
        assert preview[:3] == ["372 files", "src/module_000.py", "src/module_001.py"]
        assert preview[-1] == "… 368 more lines (Enter)"
        assert len(preview) == 6
        await pilot.click(row)
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ToolOutputScreen)
        title = str(dialog.query_one("#tool-output-title").render())
        assert title == "list_files · 373 lines"
        body = dialog.query_one("#tool-output-body")
        await pilot.press("end")  # every line is there, down to the last
        await pilot.pause()
        assert body.scroll_y > 300
        assert "src/module_371.py" in str(dialog.query_one("#tool-output-text", Static).content)


def test_a_folded_long_result_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def finish(pilot) -> None:  # type: ignore[no-untyped-def]
        pane = pilot.app.query_one(ToolStatusPane)
        pane.show_timings = False
        pane.tool_started("c1", "list_files", {"directory": "."})
        pane.tool_finished("c1", "list_files", listing(372), None, 40.0)
        await pilot.pause()

    assert snap_compare(PaneHost(), terminal_size=(40, 16), run_before=finish)
