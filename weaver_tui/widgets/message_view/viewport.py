"""The virtualised engine under ``MessageView``: what to render, when, and how lines are drawn.

``TranscriptViewport`` owns the line cache (:mod:`.cache`), renders blocks only around the
viewport, coalesces streamed appends into at most one render per frame interval, keeps the
scroll position steady when blocks above the viewport get their real heights, and implements
follow mode and Textual text selection. ``MessageView`` adds the chat API, keys and messages.

What Textual does that shaped it: ``virtual_size`` is a layout reactive,
and a screen layout per streamed frame costs more than the frame itself, so it is changed
without a layout unless the scrollbar must appear or go; ``scroll_to`` needs ``force=True``
before the first layout; widths come from ``scrollable_content_region`` with
``scrollbar-gutter: stable`` so the scrollbar never changes the wrap width.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from time import monotonic

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.events import Resize
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.theme import Theme
from textual.timer import Timer
from textual.widget import Widget

import weaver_tui.widgets.message_view.budget as budget
import weaver_tui.widgets.message_view.warm_up as warm_up
from weaver_tui.core.message_item import MessageItem
from weaver_tui.once_timer import call_once_after
from weaver_tui.widgets.message_view.blocks import SECTION, make_console, render_block
from weaver_tui.widgets.message_view.budget import RenderBudget
from weaver_tui.widgets.message_view.cache import DEFAULT_WIDTH, Entry, Layout
from weaver_tui.widgets.message_view.eviction import (
    EVICT_ABOVE_LINES,
    KEEP_SCREENS,
    evict_far_blocks,
)
from weaver_tui.widgets.message_view.header import render_header, render_notice, render_thinking
from weaver_tui.widgets.message_view.palette import Palette, build_palette
from weaver_tui.widgets.message_view.selection import (
    extract_selection,
    highlight_span,
    selection_lines,
)

JUMP_LABEL = " ↓ jump to latest (end) "
MAX_PASSES = 8
FLUSH_TIMER = "message-view-flush"
"""The name of the timer that renders what was streamed since the last frame."""


class TranscriptViewport(ScrollView):
    """A scroll view drawing a :class:`Layout` of messages from cached Rich-rendered strips."""

    ALLOW_SELECT = True
    FRAME_INTERVAL = budget.FRAME_INTERVAL
    """The shortest gap between two renders of a streaming tail: appends in between are
    coalesced; a render and its frame get at most ``budget.SHARE`` of the wall clock, so a
    fast stream on a busy CPU gets fewer, larger frames (see :mod:`.budget`)."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._layout = Layout()
        self._width = 0
        self._palette: Palette | None = None
        self._md_console: Console | None = None
        self._follow = True
        self._selected: str | None = None
        self._flush_timer: Timer | None = None
        self._last_flush = 0.0
        self._budget = RenderBudget()
        self._rendered_lines = 0
        """Lines rendered since the last eviction pass (counted, not exact)."""
        self._rendered_from: int | None = None
        """The first virtual line an ``_update`` rendered (those lines need a repaint)."""
        self._streaming_ids: set[str] = set()
        self._programmatic = False
        self._realizing = False
        self._after_paint: set[Callable[[], None]] = set()
        """What waits for this view's screen to paint (see :meth:`_call_after_paint`)."""
        self._base_style: Style | None = None
        self._drawn: dict[int, tuple[Strip | None, Strip]] = {}
        self.blocks_rendered = 0
        """How many block renders the view has done (a test and benchmark counter)."""

    @property
    def render_pending(self) -> bool:
        """True while streamed text or a realised line waits for the render that shows it."""
        return self._flush_timer is not None or bool(self._after_paint)

    # -- lifecycle, theme, size -------------------------------------------------------------

    def on_mount(self) -> None:
        super().on_mount()  # type: ignore[no-untyped-call]  # Textual's is not annotated
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self._call_after_paint(self._first_update)
        if not warm_up.started():
            call_once_after(self, warm_up.DELAY_S, warm_up.start, name="message-view-warm-up")

    def _call_after_paint(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once, after this view's screen next paints.

        Textual hands a ``call_after_refresh`` to the screen on top at the moment the request
        is handled. A dialog opening meanwhile takes it, and if the dialog closes before its
        first repaint the request is dropped with it. So the request is also kept here and
        asked again when this view's screen is back on top; whichever copy runs first does
        the work. A callback already waiting is not asked for twice.
        """
        if callback in self._after_paint:
            return
        self._after_paint.add(callback)
        self.call_after_refresh(self._run_after_paint, callback)

    def _run_after_paint(self, callback: Callable[[], None]) -> None:
        if callback in self._after_paint:
            self._after_paint.discard(callback)
            callback()

    def _screen_changed(self, screen: Screen[object]) -> None:
        if self._after_paint and screen is self.screen:
            for callback in list(self._after_paint):
                self.call_after_refresh(self._run_after_paint, callback)

    def _first_update(self) -> None:
        """The first layout gave us a width: fold in anything streamed before the mount."""
        self._flush()
        self._update()

    def on_resize(self, event: Resize) -> None:
        self._update()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base_style = None
        self._drawn.clear()

    def _theme_changed(self, theme: Theme) -> None:
        self._palette = None
        self._md_console = None
        self._drawn.clear()
        self._rendered_lines = 0
        for entry in self._layout.entries:
            entry.drop_render(self._width or DEFAULT_WIDTH)
        if self._layout.entries:
            self._layout.rebuild(0)
        self._update()

    def _ensure_palette(self) -> tuple[Palette, Console]:
        if self._palette is None or self._md_console is None:
            background = self.styles.background if self.is_mounted else None
            self._palette = build_palette(self.app.current_theme, background)
            self._md_console = make_console(self._palette)
        return self._palette, self._md_console

    def _sync_width(self) -> bool:
        """Adopt the content width; on a change drop every render, keeping the top message."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return False
        if width == self._width:
            return True
        anchor = self._anchor()
        self._width = width
        self._drawn.clear()
        self._rendered_lines = 0
        for entry in self._layout.entries:
            entry.drop_render(width)
            entry.reestimate(width)
        if self._layout.entries:
            self._layout.rebuild(0)
        if anchor is not None and not self._follow:
            index, offset = anchor
            entry_height = self._layout.entries[index].height
            self._set_scroll(self._layout.tops[index] + min(offset, entry_height - 1))
        return True

    def _anchor(self) -> tuple[int, int] | None:
        if not self._layout.entries:
            return None
        y = round(self.scroll_y)
        index = self._layout.entry_at(y)
        return index, y - self._layout.tops[index]

    # -- streaming --------------------------------------------------------------------------

    def _schedule_flush(self) -> None:
        if self._flush_timer is not None or not self.is_mounted:
            return
        delay = max(0.001, self._last_flush + self._budget.gap - monotonic())
        self._flush_timer = call_once_after(self, delay, self._flush, name=FLUSH_TIMER)

    def _cancel_flush(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.stop()
            self._flush_timer = None

    def _flush(self) -> None:
        """Fold every pending append into its message and render the frame once."""
        self._flush_timer = None
        started = self._last_flush = monotonic()
        width = self._width or DEFAULT_WIDTH
        first_changed: int | None = None
        changed: list[tuple[int, int | None]] = []
        for message_id in list(self._streaming_ids):
            position = self._layout.index.get(message_id)
            if position is None:
                self._streaming_ids.discard(message_id)
                continue
            entry = self._layout.entries[position]
            # Blocks before the tail are finished: only the tail and what follows it change.
            kept = None if entry.blocks is None else len(entry.blocks) - entry.has_tail
            thought = entry.absorb_reasoning()
            if thought:
                kept = 0  # the thinking lines changed, and the body may have moved down
            if entry.absorb_pending(width) or thought:
                changed.append((position, kept))
                first_changed = position if first_changed is None else min(first_changed, position)
        if first_changed is not None:
            self._layout.rebuild(first_changed)
            self._update(changed_from_line=min(self._first_changed_line(*c) for c in changed))
        self._budget.rendered(monotonic() - started)

    def _first_changed_line(self, position: int, kept_blocks: int | None) -> int:
        """The first virtual line of a streaming message that a flush may have changed."""
        top = self._layout.tops[position]
        entry = self._layout.entries[position]
        blocks = entry.blocks
        if not kept_blocks or blocks is None or kept_blocks > len(entry.block_tops):
            return top
        last = kept_blocks - 1
        return top + entry.body_offset + entry.block_tops[last] + blocks[last].height

    # -- realisation: render what is near the viewport --------------------------------------

    def _update(self, changed_from_line: int = 0, *, prefetch: bool = False) -> None:
        """Render what the viewport needs, set the virtual size once, keep the scroll right.

        ``changed_from_line``: nothing above this virtual line changed, so a stream growing
        below the viewport of a user reading history costs no repaint. The screen above and
        below the viewport is rendered after the paint (``prefetch``), so the first paint
        pays for the visible lines only.
        """
        if not self.is_mounted or not self._sync_width():
            return
        height = max(1, self.scrollable_content_region.height)
        scroll = round(self.scroll_y)
        top = max(0, self._layout.total - height) if self._follow else scroll
        self._rendered_from = None
        top = self._realize_range(top, height, margin=height if prefetch else 0)
        if self._rendered_from is not None:
            changed_from_line = min(changed_from_line, self._rendered_from)
        if not prefetch and not self._following_stream():
            # While the view follows a stream every frame shows new lines: a screen rendered
            # above them would be thrown away next frame. ``finish_message`` prefetches.
            self._call_after_paint(self._prefetch)
        self._set_virtual_height(self._layout.total)
        if self._follow and self.app.animator.is_being_animated(self, "scroll_y"):
            # A step of an animated scroll that reached the bottom: setting the scroll now
            # would stop the animation from inside the animator's step (which then fails to
            # remove it). The bottom is kept once the animation has landed.
            self.call_after_refresh(self._update)
        elif self._follow:
            self._set_scroll(max(0, self._layout.total - height))
        elif top != round(self.scroll_y) and not self.app.animator.is_being_animated(
            self, "scroll_y"
        ):
            # Keep what the user looks at in place; an animated scroll is left to land first.
            self._set_scroll(top)
        if self._rendered_lines > EVICT_ABOVE_LINES:
            margin = KEEP_SCREENS * height
            self._rendered_lines = evict_far_blocks(
                self._layout, top - margin, top + height + margin
            )
        moved = round(self.scroll_y) != scroll
        if moved:
            self.refresh()
        elif changed_from_line < scroll + height:
            # Only the lines that can have changed (virtual line numbers, see ScrollView).
            start = max(changed_from_line, scroll)
            self.refresh_lines(start, scroll + height - start)

    def _following_stream(self) -> bool:
        return self._follow and bool(self._streaming_ids)

    def _prefetch(self) -> None:
        self._update(changed_from_line=self._layout.total, prefetch=True)

    def _set_virtual_height(self, total: int) -> None:
        """Change ``virtual_size``; a screen layout only when the scrollbar appears or goes."""
        size = Size(self._width, total)
        old = self.virtual_size
        if size == old:
            return
        height = self.scrollable_content_region.height
        if old.width != size.width or (old.height > height) != (total > height):
            self.virtual_size = size
            # Show or hide the scrollbar now, not at the next layout: a scroll set before it
            # exists never reaches it (Widget.watch_scroll_y skips a hidden scrollbar), and it
            # would draw its thumb at the top of a view that sits at the bottom.
            self._refresh_scrollbars()
            return
        self.set_reactive(Widget.virtual_size, size)
        self._programmatic = True
        try:
            self._scroll_update(size)  # what a layout would do for us: scrollbar and clamp
        finally:
            self._programmatic = False

    def _realize_range(self, top: int, height: int, margin: int = 0) -> int:
        """Render blocks in ``[top - margin, top + height + margin)``; returns ``top`` moved by
        the height corrections of blocks above it, so the lines the user looks at stay put."""
        if self._realizing or self._width <= 0:
            return top
        self._realizing = True
        try:
            for _ in range(MAX_PASSES):
                if self._follow:
                    top = max(0, self._layout.total - height)
                changed_from, shift = self._realize_pass(top - margin, top + height + margin, top)
                if changed_from is None:
                    break
                self._layout.rebuild(changed_from)
                if not self._follow:
                    top = max(0, top + shift)
        finally:
            self._realizing = False
        return top

    def _realize_pass(self, start: int, end: int, top: int) -> tuple[int | None, int]:
        palette, console = self._ensure_palette()
        width = self._width
        changed_from: int | None = None
        shift = 0
        relayout: dict[int, Entry] = {}  # once per entry after the pass: O(blocks), not O(blocks²)
        expanded: set[int] = set()  # entries whose block indexes moved: the next pass goes on
        for index, entry, block_index, part_top in list(self._layout.window(max(0, start), end)):
            if index in expanded:
                continue
            before = entry.height
            if block_index in (-2, -3):
                if not _render_notice_or_thinking(entry, block_index, palette, console, width):
                    continue
                delta = entry.height - before
            elif block_index == -1:
                entry.split(width)
                delta = entry.height - before
            elif entry.blocks is not None and entry.blocks[block_index].kind == SECTION:
                before, delta = _expand_section(entry, block_index, width)
                expanded.add(index)
            else:
                assert entry.blocks is not None
                block = entry.blocks[block_index]
                if block.strips is not None:
                    continue
                before = block.height
                block.strips = render_block(
                    block,
                    console=console,
                    palette=palette,
                    width=width,
                    tail=entry.is_tail(block_index),
                    keep_lines=entry.item.role == "user",
                )
                self.blocks_rendered += 1
                block.height = len(block.strips)
                self._rendered_lines += block.height
                relayout[index] = entry
                delta = block.height - before
            if part_top + before <= top:
                shift += delta
            if self._rendered_from is None or part_top < self._rendered_from:
                self._rendered_from = part_top
            changed_from = index if changed_from is None else min(changed_from, index)
        for entry in relayout.values():
            entry.relayout()
        return changed_from, shift

    # -- scrolling and follow mode ----------------------------------------------------------

    def _set_scroll(self, y: int) -> None:
        """Scroll without counting as the user's scroll (follow mode is left alone)."""
        self._programmatic = True
        try:
            self.scroll_to(y=y, animate=False, force=True)
        finally:
            self._programmatic = False

    def _scroll_to_line(self, y: int) -> None:
        """A deliberate scroll (not a correction): follow only if it lands on the bottom."""
        height = max(1, self.scrollable_content_region.height)
        self._follow = False
        top = self._realize_range(y, height)
        self._set_virtual_height(self._layout.total)
        self._set_scroll(top)
        self._follow = round(self.scroll_y) >= self.max_scroll_y
        self.refresh()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self._programmatic or self._realizing or not self.is_mounted:
            return
        self._follow = round(new_value) >= self.max_scroll_y
        self._update()

    # -- drawing ----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        """Textual's paint of this widget; the one after a streamed render is timed for the
        render budget (see :mod:`.budget`)."""
        if not self._budget.paint_pending:
            return super().render_lines(crop)
        started = monotonic()
        lines = super().render_lines(crop)
        self._budget.painted(monotonic() - started)
        return lines

    def render_line(self, y: int) -> Strip:
        width = self._width or self.size.width
        virtual_y = round(self.scroll_y) + y
        source = self._line_strip(virtual_y)
        selection = self.text_selection
        drawn = self._drawn.get(virtual_y)
        if drawn is not None and drawn[0] is source and selection is None:
            strip = drawn[1]
        else:
            if self._base_style is None:
                self._base_style = self.rich_style
            strip = source or Strip.blank(width)
            if strip.cell_length != width:
                # (A strip already ``width`` wide would cache itself: a reference cycle that
                # only the garbage collector frees.)
                strip = strip.crop_extend(0, width, None)
            strip = strip.apply_style(self._base_style)
            if selection is not None and (span := selection.get_span(virtual_y)) is not None:
                style = self.screen.get_component_rich_style("screen--selection")
                strip = highlight_span(strip, span[0], span[1], style)
            strip = strip.apply_offsets(0, virtual_y)
            if selection is None:
                if len(self._drawn) > 4 * max(self.size.height, 10):
                    self._drawn.clear()
                self._drawn[virtual_y] = (source, strip)
        if (
            not self._follow
            and y == self.scrollable_content_region.height - 1
            and self._shows_jump()
        ):
            strip = self._with_jump_label(strip, width)
        return strip

    def _shows_jump(self) -> bool:
        return not self._follow and round(self.scroll_y) < self.max_scroll_y

    def _with_jump_label(self, strip: Strip, width: int) -> Strip:
        palette, _ = self._ensure_palette()
        if len(JUMP_LABEL) >= width:
            return strip
        style = palette.jump + Style.from_meta({"@click": "jump_to_latest"})
        label = Strip([Segment(JUMP_LABEL, style)])
        return Strip.join([strip.crop(0, width - len(JUMP_LABEL)), label])

    def _line_strip(self, virtual_y: int) -> Strip | None:
        """The cached strip for a virtual line, ``None`` for blank or not-yet-rendered."""
        layout = self._layout
        if not layout.entries or virtual_y < 0 or virtual_y >= layout.total:
            return None
        index = layout.entry_at(virtual_y)
        entry = layout.entries[index]
        kind, part, line = entry.locate(virtual_y - layout.tops[index])
        if kind == "header":
            return self._header(entry)
        if kind == "block":
            assert entry.blocks is not None
            strips = entry.blocks[part].strips
            if strips is None:
                self._request_update()
                return None
            return strips[line] if line < len(strips) else None
        if kind == "thinking":
            if entry.thinking is None:
                self._request_update()
                return None
            return entry.thinking[line] if line < len(entry.thinking) else None
        if kind == "notice":
            if entry.notice is None:
                self._request_update()
                return None
            return entry.notice[line] if line < len(entry.notice) else None
        if kind == "unsplit":
            self._request_update()
        return None

    def _request_update(self) -> None:
        """A line was asked for before its block was rendered: render after this frame."""
        if not self._realizing:
            self._call_after_paint(self._update)

    def _header(self, entry: Entry) -> Strip:
        if entry.header is None or entry.header.cell_length != self._width:
            palette, console = self._ensure_palette()
            selected = entry.item.id == self._selected
            entry.header = render_header(
                self._current_item(entry), palette, console, self._width, selected=selected
            )
        return entry.header

    def _line_text(self, virtual_y: int) -> str:
        strip = self._line_strip(virtual_y)
        return strip.text.rstrip() if strip is not None else ""

    @staticmethod
    def _current_item(entry: Entry) -> MessageItem:
        reasoning = entry.reasoning + "".join(entry.reasoning_pending)
        same_text = entry.text == entry.item.content and not entry.pending
        if same_text and reasoning == entry.item.reasoning:
            return entry.item
        return replace(entry.item, content=entry.text + "".join(entry.pending), reasoning=reasoning)

    # -- text selection ---------------------------------------------------------------------

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The selected text; unrendered history in between is copied as its Markdown."""
        if not self._layout.entries:
            return None
        last = self._layout.total - 1
        start_y = selection.start.y if selection.start is not None else 0
        end_y = selection.end.y if selection.end is not None else last
        lines = selection_lines(self._layout, start_y, end_y, self._line_text)
        return extract_selection(selection, lines, last), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self._drawn.clear()
        self.refresh()


def _expand_section(entry: Entry, index: int, width: int) -> tuple[int, int]:
    """Parse the placeholder section at ``index`` into its blocks; return the placeholder's
    height and how much the entry's height changed (the entry's later block indexes moved)."""
    assert entry.blocks is not None
    entry_height, before = entry.height, entry.blocks[index].height
    entry.expand_section(index, width)
    return before, entry.height - entry_height


def _render_notice_or_thinking(
    entry: Entry, part: int, palette: Palette, console: Console, width: int
) -> bool:
    """Render the entry's error notice (``part`` -2) or thinking lines (-3) if they are due;
    True if it rendered them."""
    if part == -2:
        if entry.notice is not None or not entry.has_notice:
            return False
        entry.notice = render_notice(entry.item, palette, console, width)
    else:
        if entry.thinking is not None or not entry.has_thinking:
            return False
        entry.thinking = render_thinking(
            entry.item.id,
            entry.reasoning,
            palette,
            console,
            width,
            unfolded=entry.thinking_open,
        )
    entry.relayout()
    return True
