"""How often a streaming message view may render: a share of the wall clock, not a frame rate.

A streamed render has two costs: the view's own work (fold the new text in, re-render the
unfinished block) and the frame it causes. The frame is the larger one: Textual's compositor
calls ``render_lines`` of every widget whose container overlaps the changed region (the tree,
the composer, the header, the footer, the tool pane all re-walk their cached lines), and while
the view follows the bottom every one of its lines moves. Measured in the whole app at 120x40
over a 20,000-token reply, the frames a streamed render causes (its own, and the scrollbar's,
which Textual often paints in a frame of its own just after) cost about four times the view's
own ``render_lines``, so the frame is estimated as :data:`PAINT_FACTOR` times the view's
measured paint.

The next render waits until (render + estimated frame) is at most :data:`SHARE` of the time
since the last one, between :data:`FRAME_INTERVAL` and :data:`MAX_GAP`. A fast stream on a busy
machine thus gets fewer, larger frames instead of starving the runtime that produces the tokens
and the keys queued behind each frame. A render's cost grows with the gap (more finished blocks
to render) only up to a screen: blocks that scroll past between two frames are never rendered,
which is also why a faster-than-reading stream is cheapest at a low frame rate.
"""

from __future__ import annotations

FRAME_INTERVAL = 1 / 30
"""The shortest gap between two renders of a stream (30 frames a second)."""
SHARE = 0.08
"""The largest share of the wall clock streamed renders and their frames may take. Only a
stream far faster than anyone reads reaches it: a 20,000-token reply at full speed gets about
2 renders a second (7 in all, 10 at 12 %; the whole app's time over the runtime's alone went
from 1.26x to 1.18x); at a model's usual 50-200 tokens a second a render costs a few
milliseconds and the view renders 30 times a second."""
PAINT_FACTOR = 4.0
"""The frames a streamed render causes, in multiples of the view's own ``render_lines`` time."""
MAX_GAP = 0.5
"""The longest gap between two renders of a stream (2 frames a second)."""


class RenderBudget:
    """Tracks the recent cost of a streamed render and gives the gap to the next one."""

    __slots__ = ("_cost", "_paint", "gap", "paint_pending")

    def __init__(self) -> None:
        self.gap = FRAME_INTERVAL
        self._cost = 0.0
        self._paint = 0.0
        self.paint_pending = False
        """True from a render until the frame that paints it has been measured."""

    def rendered(self, seconds: float) -> None:
        """A streamed render (fold + realise) took ``seconds``; its frame is measured next."""
        cost = seconds + PAINT_FACTOR * self._paint
        # Smoothed over two renders, so one slow frame (a garbage collection) does not stall.
        self._cost = cost if self._cost == 0.0 else (self._cost + cost) / 2
        self.gap = min(MAX_GAP, max(FRAME_INTERVAL, self._cost / SHARE))
        self.paint_pending = True

    def painted(self, seconds: float) -> None:
        """The view's ``render_lines`` for the frame after a streamed render took ``seconds``."""
        self._paint = seconds
        self.paint_pending = False
