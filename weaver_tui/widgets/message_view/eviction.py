"""Forgets the rendered lines of blocks far from the viewport, so the line cache stays bounded.

Why: every rendered line is a Textual ``Strip`` (with seven small caches of its own) and its
segments, about fifteen objects that the garbage collector walks in every full collection. A
20,000-token reply renders thousands of lines; kept forever, they made every full collection
late in the reply take longer (a frozen frame and key press each time) and grew the memory.
A block whose lines are dropped keeps its real height, so nothing in the layout moves, and it
is rendered again, to the same lines, when it comes back near the viewport.
"""

from __future__ import annotations

from weaver_tui.widgets.message_view.cache import Layout

EVICT_ABOVE_LINES = 600
"""Rendered lines the view may hold before the ones far from the viewport are dropped."""
KEEP_SCREENS = 2
"""Screens above and below the viewport whose rendered lines are always kept."""


def evict_far_blocks(layout: Layout, keep_start: int, keep_end: int) -> int:
    """Drop the lines of blocks entirely outside virtual lines ``[keep_start, keep_end)``;
    return how many rendered lines are left."""
    kept = 0
    for index, entry in enumerate(layout.entries):
        blocks = entry.blocks
        if not blocks:
            continue
        entry_top = layout.tops[index]
        body_top = entry_top + entry.body_offset
        if entry_top + entry.height <= keep_start or entry_top >= keep_end:
            for block in blocks:
                block.strips = None
            continue
        for block_index, block in enumerate(blocks):
            if block.strips is None:
                continue
            top = body_top + entry.block_tops[block_index]
            if top + block.height <= keep_start or top >= keep_end:
                block.strips = None
            else:
                kept += block.height
    return kept
