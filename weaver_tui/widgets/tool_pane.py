"""The tool-status pane: what the agent is doing, one row per tool call and per graph stage.

A row shows a spinner while its tool or stage runs, then a mark and the duration; tool rows add
a short form of the arguments and the first lines of the output with how many more there are
(Enter or a click opens the whole output, scrollable); errors are drawn in ``$error``. The footer line gives token usage and latency of the last
reply. The chat screen feeds it from the runtime's events (``ToolStarted``, ``ToolFinished``,
``NodeStatus``, ``Usage``); the pane never talks to the runtime itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.await_remove import AwaitRemove
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.widgets import Static

from storage.models import MessageRecord
from storage.printable import printable
from storage.usage_text import usage_text

if TYPE_CHECKING:  # the agent stack is imported after the first frame, never for this pane
    from agents.runtime.events import Usage

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ARGS_WIDTH = 25
"""The argument line's width: the pane's 27 columns of row content less its 2-column indent."""
FOLDED_LINES = 5
"""Lines of a tool's output the pane shows under its row; Enter or a click shows them all."""
RowState = Literal["running", "done", "error"]


def cut(text: str, width: int) -> str:
    """``text``, or its first ``width - 1`` characters and an ellipsis when it is longer."""
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def short_args(args: dict[str, Any], width: int = ARGS_WIDTH) -> str:
    """``key=value`` pairs on one line, each value cut short, the whole cut to ``width``."""
    parts: list[str] = []
    for key, value in args.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = " ".join(str(text).split())
        parts.append(f"{key}={cut(text, 24)}")
    return cut(", ".join(parts), width)


def format_duration(ms: float) -> str:
    """``12 ms``, ``1.4 s``, ``2 m 05 s``: short, readable at a glance."""
    if ms < 1000:
        return f"{ms:.0f} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} m {rest:02d} s"


class ToolRow(Vertical, can_focus=True):
    """One tool call or graph stage; Enter (or a click) opens its whole output."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_output", "Whole output", show=False),
    ]

    def __init__(
        self, key: str, name: str, detail: str, *, kind: str, stage_node: str | None = None
    ) -> None:
        super().__init__(classes=f"tool-row -{kind} -running")
        self.key = key
        self.stage_node = stage_node
        """The graph node a stage row reports on (``None`` for a tool call)."""
        # a row shows what a tool, a provider or an MCP server said: printable from here on
        self.tool_name = printable(name)
        self.detail = printable(detail)
        self.kind = kind
        self.state: RowState = "running"
        self.output = ""
        self.duration_ms: float | None = None
        self.started = time.monotonic()
        self.show_timing = True
        self._ready = False
        self._title_length = -1
        self._preview_text = ""

    def compose(self) -> ComposeResult:
        yield Static(classes="row-title", markup=False)
        yield Static(classes="row-preview", markup=False)

    def on_mount(self) -> None:
        self._ready = True
        self.redraw(0)

    def finish(self, state: RowState, output: str, duration_ms: float | None) -> None:
        """Mark the row done or failed, with its output (or error sentence) and duration."""
        self.state = state
        self.output = printable(output)
        self.duration_ms = duration_ms
        self.set_class(False, "-running")
        self.set_class(state == "error", "-error")
        self.redraw(0)

    def rename(self, name: str) -> None:
        self.tool_name = printable(name)
        self.redraw(0)

    def redraw(self, frame: int) -> None:
        """Draw the title (spinner frame while running) and the preview."""
        if not self._ready or not self.is_attached:
            return
        try:
            title_label = self.query_one(".row-title", Static)
            preview = self.query_one(".row-preview", Static)
        except NoMatches:  # the row is being removed (a new turn cleared the pane)
            return
        if self.state == "running":
            mark: tuple[str, str] = (SPINNER[frame % len(SPINNER)], "$accent")
            elapsed = (time.monotonic() - self.started) * 1000
            timing = format_duration(elapsed) if elapsed >= 1000 else ""
        else:
            mark = ("✗", "$error") if self.state == "error" else ("✓", "$success")
            timing = format_duration(self.duration_ms) if self.duration_ms is not None else ""
        if not self.show_timing:
            timing = ""
        name_style = "$error bold" if self.state == "error" else "bold"
        name = self.tool_name
        room = title_label.content_size.width
        if self.kind == "tool" and timing and room:
            # A long tool name gives way to its duration ("✓ search_knowledge_b…  6 ms").
            limit = room - 4 - len(timing)
            if limit > 1:
                name = cut(name, limit)
        title = Content.assemble(
            mark,
            " ",
            (name, name_style),
            (f"  {timing}" if timing else "", "$text-muted"),
            (f"\n  {self.detail}" if self.detail else "", "$text-muted"),
        )
        # A spinner tick changes characters, not the size: no layout of the screen for it
        # (ten times a second while a reply streams).
        plain = title.plain
        title_label.update(title, layout=len(plain) != self._title_length)
        self._title_length = len(plain)
        lines = self.output.splitlines()
        if not lines:
            preview.display = False
            return
        preview.display = True
        shown = lines[:FOLDED_LINES]
        more = len(lines) - len(shown)
        noun = "line" if more == 1 else "lines"
        text = "\n".join(shown) + (f"\n… {more} more {noun} (Enter)" if more else "")
        if text != self._preview_text:
            # The preview does not wrap: only another number of lines changes its height (a
            # resize redraws the same text: no update, no layout of the screen after it).
            lines_before = self._preview_text.count("\n")
            preview.update(text, layout=text.count("\n") != lines_before)
            self._preview_text = text

    def on_resize(self) -> None:
        self.redraw(0)  # the name is cut to the width the row has now

    def action_open_output(self) -> None:
        """Show every line of the output in a scrollable dialog."""
        from weaver_tui.widgets.tool_output_dialog import ToolOutputScreen

        if self.output:
            self.app.push_screen(ToolOutputScreen(self.tool_name, self.output))

    def on_click(self) -> None:
        self.action_open_output()


class ToolStatusPane(Vertical):
    """Rows for the tools and stages of the current turn, and the last reply's usage."""

    show_timings: reactive[bool] = reactive(True, init=False)
    """Durations and latency on or off (off makes screenshots repeatable)."""

    DEFAULT_CSS = """
    ToolStatusPane {
        width: 30;
        border-left: vkey $panel;
        background: $surface;
        & > #tool-pane-title { color: $text-muted; text-style: bold; padding: 0 1; }
        & > #tool-rows { height: 1fr; scrollbar-size-vertical: 1; }
        & > #tool-usage { color: $text-muted; padding: 0 1; height: auto; }
        & .tool-row { height: auto; padding: 0 1; }
        & .tool-row:focus { background: $boost; }
        & .tool-row > .row-title { color: $tool; }
        & .tool-row.-stage > .row-title { color: $foreground; }
        & .tool-row > .row-preview {
            color: $text-muted;
            padding-left: 2;
            text-wrap: nowrap;
            text-overflow: ellipsis;
        }
        & .tool-row.-error > .row-preview { color: $error; }
        & #tool-empty { color: $text-muted; padding: 0 1; }
    }
    """

    def compose(self) -> ComposeResult:
        yield Static("Tools", id="tool-pane-title", markup=False)
        with VerticalScroll(id="tool-rows"):
            yield Static("No tool has run in this turn.", id="tool-empty", markup=False)
        yield Static("", id="tool-usage", markup=False)

    turn_reply_id: str | None = None
    """The reply of the turn the rows are about (a deleted branch takes its rows with it)."""

    def on_mount(self) -> None:
        self._frame = 0
        self._usage: tuple[Usage | Mapping[str, Any] | None, float | None] = (None, None)
        self._spinner = self.set_interval(0.1, self._spin, pause=True)

    @property
    def rows(self) -> list[ToolRow]:
        return list(self.query(ToolRow))

    def row(self, key: str) -> ToolRow | None:
        return next((row for row in self.query(ToolRow) if row.key == key), None)

    async def new_turn(self) -> None:
        """Forget the rows of the previous turn (the usage line stays until replaced)."""
        await self._forget_rows()

    def clear(self) -> None:
        """Another conversation is shown: none of the rows or the usage line are about it."""
        self._forget_rows()
        self.set_usage(None, None)
        self.turn_reply_id = None

    def _forget_rows(self) -> AwaitRemove:
        self.query_one("#tool-empty").display = True
        return self.query(ToolRow).remove()

    def show_stored_turn(
        self,
        reply_id: str | None,
        tool_records: Sequence[MessageRecord],
        usage: Mapping[str, Any] | None = None,
    ) -> None:
        """Show the tools of the turn on screen (another branch was checked out): a finished
        row per stored tool result, or nothing when that turn ran none, and the turn's usage
        as its reply keeps it (``meta["turn_usage"]``)."""
        self._forget_rows()
        self.turn_reply_id = reply_id
        for record in tool_records:
            name = str(record.meta.get("name") or "tool")
            key = f"tool:{record.meta.get('tool_call_id') or record.id}"
            row = ToolRow(key, name, "", kind="tool")
            self._add(row)
            error = record.meta.get("error")
            duration = record.meta.get("duration_ms")
            row.finish(
                "error" if error else "done",
                str(error) if error else record.content,
                float(duration) if isinstance(duration, int | float) else None,
            )
        self.set_usage(usage, None)

    def tool_started(self, call_id: str, name: str, args: dict[str, Any]) -> None:
        self._add(ToolRow(f"tool:{call_id}", name, short_args(args), kind="tool"))

    def tool_finished(
        self, call_id: str, name: str, output: str, error: str | None, duration_ms: float
    ) -> None:
        row = self.row(f"tool:{call_id}")
        if row is None:
            row = ToolRow(f"tool:{call_id}", name, "", kind="tool")
            self._add(row)
        row.finish("error" if error else "done", error or output, duration_ms)

    def stage(self, node: str, text: str, state: RowState) -> None:
        """A graph stage line: a row for ``node``, updated in place while it runs. A stage that
        runs again after it finished (a second validation, the next search step) gets a row
        of its own below, so the pane keeps the turn's history in order."""
        rows = [row for row in self.query(ToolRow) if row.stage_node == node]
        row = rows[-1] if rows and rows[-1].state == "running" else None
        if row is None:
            key = f"stage:{node}" if not rows else f"stage:{node}#{len(rows) + 1}"
            row = ToolRow(key, text, "", kind="stage", stage_node=node)
            self._add(row)
        else:
            row.rename(text)
        if state != "running":
            row.finish(state, "", (time.monotonic() - row.started) * 1000)

    def set_usage(self, usage: Usage | Mapping[str, Any] | None, latency_ms: float | None) -> None:
        """Show the last turn's token usage (with the cached and reasoning tokens and the cost
        where the server reported them; live, or as a stored reply keeps it) and latency
        (either may be unknown)."""
        self._usage = (usage, latency_ms)
        parts: list[str] = []
        if usage is not None:
            parts.append(usage_text(usage if isinstance(usage, Mapping) else usage.as_meta()))
        if latency_ms is not None and self.show_timings:
            parts.append(format_duration(latency_ms))
        self.query_one("#tool-usage", Static).update(" · ".join(parts))

    def watch_show_timings(self) -> None:
        for row in self.query(ToolRow):
            row.show_timing = self.show_timings
            row.redraw(self._frame)
        if self.is_mounted:
            self.set_usage(*self._usage)

    def _add(self, row: ToolRow) -> None:
        row.show_timing = self.show_timings
        self.query_one("#tool-empty").display = False
        rows = self.query_one("#tool-rows", VerticalScroll)
        rows.mount(row)
        rows.scroll_end(animate=False, immediate=False)
        self._spinner.resume()

    def _spin(self) -> None:
        self._frame += 1
        running = [row for row in self.query(ToolRow) if row.state == "running"]
        for row in running:
            row.redraw(self._frame)
        if not running:
            self._spinner.pause()
