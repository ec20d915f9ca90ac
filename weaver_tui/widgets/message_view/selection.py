"""Mouse text selection on cached strips: highlight a span, and pull out the selected text.

Textual's selection speaks in (character x, virtual line y) offsets, the same offsets the view
stamps on each line with ``Strip.apply_offsets``. Highlighting restyles characters
``[start, end)`` of one strip; extraction joins the lines between the two ends, cutting the
first and last line at their offsets (as ``Selection.extract`` does for ``Log``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from rich.segment import Segment
from rich.style import Style
from textual.selection import Selection
from textual.strip import Strip

from weaver_tui.widgets.message_view.cache import Layout


def highlight_span(strip: Strip, start: int, end: int, style: Style) -> Strip:
    """``strip`` with characters ``start`` to ``end`` (-1: line end) overlaid with ``style``."""
    if end == -1:
        end = sum(len(segment.text) for segment in strip)
    if end <= start:
        return strip
    segments: list[Segment] = []
    position = 0
    for segment in strip:
        text, seg_style, control = segment
        size = len(text)
        seg_start, seg_end = position, position + size
        position = seg_end
        if control or seg_end <= start or seg_start >= end:
            segments.append(segment)
            continue
        cut_a = max(start - seg_start, 0)
        cut_b = min(end - seg_start, size)
        selected_style = seg_style + style if seg_style else style
        if cut_a:
            segments.append(Segment(text[:cut_a], seg_style))
        segments.append(Segment(text[cut_a:cut_b], selected_style))
        if cut_b < size:
            segments.append(Segment(text[cut_b:], seg_style))
    return Strip(segments, strip.cell_length)


def extract_selection(
    selection: Selection, lines: Iterable[tuple[int | None, str]], last_line: int
) -> str:
    """The selected text, from ``(virtual_y, text)`` pairs in order.

    A pair with ``y=None`` stands for a stretch that was never rendered (history far from the
    viewport): its Markdown source is taken whole, since only the two ends of a selection
    need exact offsets and those are on lines the user saw.
    """
    start_y = selection.start.y if selection.start is not None else 0
    start_x = selection.start.x if selection.start is not None else 0
    end_y = selection.end.y if selection.end is not None else last_line
    end_x = selection.end.x if selection.end is not None else None
    parts: list[str] = []
    for y, text in lines:
        if y is None:
            parts.append(text)
            continue
        if y == end_y and end_x is not None:
            text = text[:end_x]
        if y == start_y:
            text = text[start_x:]
        parts.append(text.rstrip())
    return "\n".join(parts)


def selection_lines(
    layout: Layout, start_y: int, end_y: int, line_text: Callable[[int], str]
) -> Iterator[tuple[int | None, str]]:
    """``(virtual_y, text)`` for each line from ``start_y`` to ``end_y``.

    Rendered lines come from ``line_text``; a message or block that was never rendered comes
    whole as ``(None, its Markdown)``, so select-all over 2,000 messages renders nothing.
    """
    y = start_y
    while y <= min(end_y, layout.total - 1):
        index = layout.entry_at(y)
        entry = layout.entries[index]
        kind, part, line = entry.locate(y - layout.tops[index])
        if kind == "unsplit":
            yield None, entry.text
            y = layout.tops[index] + entry.body_offset + entry.body_height
            continue
        if kind == "block" and entry.blocks is not None and entry.blocks[part].strips is None:
            block = entry.blocks[part]
            yield None, block.source
            y += block.height - line
            continue
        yield y, line_text(y)
        y += 1
