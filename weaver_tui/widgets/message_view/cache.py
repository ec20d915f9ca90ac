"""The line cache behind the view: every message's blocks, heights and virtual positions.

A message occupies ``header + thinking + body + notice + one blank line``; its body is its
blocks with a blank line between them. ``thinking`` is a reply's reasoning: nothing without
any, one folded line, or (unfolded) that line and the reasoning text. Nothing is rendered here: a message starts *unsplit* with an estimated
height, is split into blocks when it comes near the viewport, and each block carries its
rendered strips once the view has rendered it. ``Layout`` keeps the prefix sums that map a
virtual line to (message, line) with a bisect, so a 2,000-message path costs a list of ints.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field

from textual.strip import Strip

from weaver_tui.core.message_item import MessageItem
from weaver_tui.widgets.message_view.blocks import (
    FENCE_KINDS,
    SECTION,
    Block,
    close_open_fence,
    estimate_height,
    split_blocks,
    split_sections,
    split_stream,
)

DEFAULT_WIDTH = 80


@dataclass(slots=True)
class Entry:
    """One message in the view: its item, streamed text and (lazily) its blocks."""

    item: MessageItem
    text: str = ""
    pending: list[str] = field(default_factory=list)
    blocks: list[Block] | None = None
    tail_offset: int = 0
    has_tail: bool = False
    open_blocks: int = 1
    """How many of the last blocks a stream parses again with what comes next (see
    :func:`~weaver_tui.widgets.message_view.blocks.split_stream`)."""
    header: Strip | None = None
    notice: list[Strip] | None = None
    block_tops: list[int] = field(default_factory=list)
    estimate: int = 1
    height: int = 3
    reasoning: str = ""
    reasoning_pending: list[str] = field(default_factory=list)
    thinking_open: bool = False
    thinking: list[Strip] | None = None
    """The rendered thinking lines (the folded line, or the line and the reasoning)."""

    @classmethod
    def from_item(cls, item: MessageItem, width: int, *, thinking_open: bool = False) -> Entry:
        entry = cls(
            item=item,
            text=_normalise(item.content),
            reasoning=item.reasoning,
            thinking_open=thinking_open,
        )
        entry.reestimate(width)
        return entry

    @property
    def has_thinking(self) -> bool:
        return bool(self.reasoning)

    @property
    def thinking_height(self) -> int:
        if not self.reasoning:
            return 0
        if self.thinking is not None:
            return len(self.thinking)
        if not self.thinking_open:
            return 1
        return 2 + self.reasoning.count("\n")  # an estimate until it is rendered

    @property
    def body_offset(self) -> int:
        """The body's first line, counted from the header's."""
        return 1 + self.thinking_height

    def absorb_reasoning(self) -> bool:
        """Move streamed reasoning into ``reasoning``; its lines are rendered again."""
        if not self.reasoning_pending:
            return False
        self.reasoning += "".join(self.reasoning_pending)
        self.reasoning_pending.clear()
        self.thinking = None
        self.relayout()
        return True

    def set_reasoning(self, reasoning: str, *, thinking_open: bool | None = None) -> None:
        """Show ``reasoning`` (folded or unfolded as given); its lines are rendered again."""
        self.reasoning = reasoning
        self.reasoning_pending.clear()
        if thinking_open is not None:
            self.thinking_open = thinking_open
        self.thinking = None
        self.relayout()

    @property
    def streaming(self) -> bool:
        return self.item.status == "streaming"

    @property
    def has_notice(self) -> bool:
        return bool(self.item.error) and self.item.status == "error"

    def reestimate(self, width: int) -> None:
        """Estimate the body from the raw text (unsplit) or the blocks (split)."""
        if self.blocks is None:
            # O(1) in Python (two C-level scans): a 2,000-message path is estimated at once.
            text = self.text
            self.estimate = text.count("\n") + len(text) // max(width - 2, 8) + 1 if text else 0
        else:
            for block in self.blocks:
                if block.strips is None:
                    block.height = estimate_height(block.source, width)
        self.relayout()

    def drop_render(self, width: int) -> None:
        """Forget rendered lines (width or theme changed); keep real heights as estimates."""
        self.header = None
        self.notice = None
        self.thinking = None
        if self.blocks is not None:
            for block in self.blocks:
                block.strips = None
        self.relayout()

    def split(self, width: int) -> None:
        """Split the whole text into blocks; a streaming entry keeps its last one as the tail."""
        self.blocks = []
        self.tail_offset = 0
        self.has_tail = False
        self._split_tail(width)

    def expand_section(self, index: int, width: int) -> None:
        """Replace the placeholder block at ``index`` by the blocks of its section."""
        assert self.blocks is not None
        section = self.blocks[index]
        assert section.kind == SECTION
        parsed, _ = split_blocks(section.source, last_to_end=False)
        for block in parsed:
            block.height = estimate_height(block.source, width)
        self.blocks[index : index + 1] = parsed
        self.relayout()

    def absorb_pending(self, width: int) -> bool:
        """Move streamed fragments into the text and re-split only the unfinished tail."""
        if not self.pending:
            return False
        self.text += _normalise("".join(self.pending))
        self.pending.clear()
        if self.blocks is None:
            self.split(width)
        else:
            self._split_tail(width)
        return True

    def finish(self, item: MessageItem, width: int) -> None:
        """End the stream: the tail becomes a finished block, rendered without a fence fix."""
        self.absorb_reasoning()
        self.absorb_pending(width)
        self.item = item
        self.header = None
        self.notice = None
        if self.blocks is not None and self.has_tail:
            self._split_tail(width)  # no longer streaming: every block is finished
        self.relayout()

    def _split_tail(self, width: int) -> None:
        """Parse the text from ``tail_offset`` on into blocks (a stream keeps its last block as
        the tail, parsed again with what comes next).

        A long stretch (a whole reply reopened, or what a fast stream brought since the last
        frame) is parsed at its end only: the sections before it stay placeholder blocks (kind
        ``SECTION``, estimated height) until :meth:`expand_section` parses them as they come
        near the viewport, so a 200 KB reply shows its end after parsing a few KB. The blocks
        are the same either way (:func:`split_sections`), and text appended later never
        changes a block that ends before a cut.
        """
        assert self.blocks is not None
        reopened: list[Block] = []
        if self.has_tail:
            reopened = self.blocks[-self.open_blocks :]
            del self.blocks[-self.open_blocks :]
            self.has_tail = False
        sections = split_sections(self.text[self.tail_offset :])
        for section in sections[:-1]:
            height = estimate_height(section.strip("\n"), width)
            self.blocks.append(Block(section, SECTION, height=height))
            self.tail_offset += len(section)
        new_blocks, open_start, self.open_blocks = split_stream(sections[-1])
        for block in new_blocks:
            block.height = estimate_height(block.source, width)
        if len(sections) == 1:
            _keep_drawn(reopened, new_blocks)
        self.blocks.extend(new_blocks)
        if self.streaming:
            if new_blocks:
                self.tail_offset += open_start
                self.has_tail = True
        else:
            self.tail_offset = len(self.text)
        self.relayout()

    def relayout(self) -> None:
        """Recompute block positions (relative to the body) and the entry's height."""
        tops: list[int] = []
        y = 0
        if self.blocks is None:
            body = self.estimate
        else:
            for index, block in enumerate(self.blocks):
                if index:
                    y += 1
                tops.append(y)
                y += block.height
            body = y
        self.block_tops = tops
        notice = len(self.notice) if self.notice is not None else (1 if self.has_notice else 0)
        self.height = self.body_offset + body + notice + 1

    @property
    def body_height(self) -> int:
        return self.height - 1 - self.body_offset - self.notice_height

    @property
    def notice_height(self) -> int:
        if self.notice is not None:
            return len(self.notice)
        return 1 if self.has_notice else 0

    def locate(self, line: int) -> tuple[str, int, int]:
        """What sits on ``line`` of this entry: (kind, index, line-in-part).

        kind is ``header``, ``thinking``, ``block`` (index = block index), ``notice``,
        ``unsplit`` or ``blank``.
        """
        if line == 0:
            return "header", 0, 0
        offset = self.body_offset
        if line < offset:
            return "thinking", 0, line - 1
        body_line = line - offset
        body = self.body_height
        if body_line < body:
            if self.blocks is None:
                return "unsplit", 0, body_line
            index = bisect_right(self.block_tops, body_line) - 1
            inner = body_line - self.block_tops[index]
            if inner < self.blocks[index].height:
                return "block", index, inner
            return "blank", 0, 0
        notice_line = body_line - body
        if notice_line < self.notice_height:
            return "notice", 0, notice_line
        return "blank", 0, 0

    def code_block_near(self, start: int, end: int) -> Block | None:
        """The last code block overlapping body lines ``[start, end)``, else the last one."""
        blocks = self.blocks or []
        fences = [i for i, block in enumerate(blocks) if block.kind in FENCE_KINDS]
        for i in reversed(fences):
            top = self.block_tops[i]
            if top < end and top + blocks[i].height > start:
                return blocks[i]
        return blocks[fences[-1]] if fences else None

    def is_tail(self, index: int) -> bool:
        return self.has_tail and self.blocks is not None and index == len(self.blocks) - 1


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class Layout:
    """All entries in order, their virtual tops, and lookup by id and by virtual line."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.tops: list[int] = []
        self.index: dict[str, int] = {}
        self.total = 0

    def reset(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.index = {entry.item.id: i for i, entry in enumerate(entries)}
        self.tops = [0] * len(entries)
        self.rebuild(0)

    def append(self, entry: Entry) -> None:
        self.index[entry.item.id] = len(self.entries)
        self.entries.append(entry)
        self.tops.append(self.total)
        self.total += entry.height

    def rebuild(self, start: int) -> None:
        """Recompute tops from entry ``start`` on (everything above keeps its position)."""
        entries, tops = self.entries, self.tops
        y = tops[start - 1] + entries[start - 1].height if start > 0 else 0
        for i in range(max(start, 0), len(entries)):
            tops[i] = y
            y += entries[i].height
        self.total = y

    def get(self, message_id: str) -> Entry | None:
        position = self.index.get(message_id)
        return None if position is None else self.entries[position]

    def entry_at(self, y: int) -> int:
        """Index of the entry covering virtual line ``y`` (clamped to the last entry)."""
        return max(0, bisect_right(self.tops, y) - 1)

    def window(self, start: int, end: int) -> Iterator[tuple[int, Entry, int, int]]:
        """Entries and their blocks overlapping virtual lines [start, end).

        Yields ``(entry_index, entry, block_index, top)`` where ``top`` is the block's virtual
        line; block_index is -1 for an unsplit entry and -2 for an entry whose error notice is
        not rendered yet, -3 for one whose thinking lines are not (``top``: the entry's top).
        """
        if not self.entries:
            return
        for i in range(self.entry_at(start), len(self.entries)):
            entry_top = self.tops[i]
            if entry_top >= end:
                return
            entry = self.entries[i]
            if entry.notice is None and entry.has_notice:
                yield i, entry, -2, entry_top
            if entry.thinking is None and entry.has_thinking:
                yield i, entry, -3, entry_top
            if entry.blocks is None:
                if entry.body_height:
                    yield i, entry, -1, entry_top
                continue
            body_top = entry_top + entry.body_offset
            first = max(0, bisect_right(entry.block_tops, start - body_top) - 1)
            for b in range(first, len(entry.blocks)):
                top = body_top + entry.block_tops[b]
                if top >= end:
                    break
                if top + entry.blocks[b].height > start:
                    yield i, entry, b, top


def _keep_drawn(reopened: list[Block], parsed: list[Block]) -> None:
    """Give a block parsed again the lines it was drawn with, when it reads the same and was
    drawn as it will be now (not an open code fence closed for the stream's tail)."""
    for old, new in zip(reopened, parsed, strict=False):
        if (
            old.strips is not None
            and (old.source, old.kind, old.fence) == (new.source, new.kind, new.fence)
            and close_open_fence(old) == old.source
        ):
            new.strips, new.height = old.strips, old.height
