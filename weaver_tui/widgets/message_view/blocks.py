"""Markdown split into top-level blocks, and one block rendered with Rich into ``Strip`` lines.

Blocks are the unit of caching: a finished block is rendered once per width and theme; while a
reply streams only its unfinished last block is rendered again. Blocks come from markdown-it's
token line ranges (``token.map`` of the level-0 tokens, as ``textual``'s ``Markdown.append``
does), with the same parser settings Rich renders with, so a split never disagrees with the
render.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from storage.hidden_characters import reveal_bidi_controls
from storage.printable import printable
from weaver_tui.widgets.message_view.palette import Palette

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

_parser: MarkdownIt | None = None


def _markdown_parser() -> MarkdownIt:
    """markdown-it with Rich's own settings, block rules only, built on first use: importing
    it (and Rich's Markdown, pygments) is kept out of the app's first frame
    (:mod:`.rich_markdown`)."""
    global _parser
    if _parser is None:
        from weaver_tui.widgets.message_view.rich_markdown import BLOCK_PARSER

        _parser = BLOCK_PARSER
    return _parser


FENCE_KINDS = frozenset({"fence", "code_block"})


@dataclass(slots=True)
class Block:
    """One top-level Markdown block of a message and, once rendered, its lines.

    ``height`` is the real line count when ``strips`` is set, an estimate before. ``fence`` is
    the fence markup (```` ``` ````) of a code fence, so an unclosed one can be closed before the
    stream tail is rendered.
    """

    source: str
    kind: str
    fence: str = ""
    strips: list[Strip] | None = None
    height: int = 1


def split_blocks(text: str, *, last_to_end: bool = True) -> tuple[list[Block], int]:
    """Split ``text`` into top-level blocks; also return where the last one starts.

    The offset (in characters) lets a stream keep the finished blocks and parse only the
    tail next time. Text that yields no block (blank lines) gives ``([], len(text))``.
    ``last_to_end``: the last block runs to the end of ``text`` (a stream's tail, a message's
    end), else it ends where markdown-it ends it (a section of a longer text, see
    :func:`split_sections`).
    """
    blocks, starts, _ = _split(text, last_to_end)
    return blocks, starts[-1] if starts else len(text)


def split_stream(text: str) -> tuple[list[Block], int, int]:
    """:func:`split_blocks` for a stream's unfinished part: its blocks, where the part that
    later text may still change starts, and how many blocks that part holds.

    That part is the last block, and the block before it when no blank line separates the
    two or that block is a list: the last line may be incomplete, and a line that now starts a
    block of its own may, once complete, continue the block above instead (``-`` under a
    table starts a list, ``-x`` is the table's next row; ``2`` after a list and a blank line
    is a paragraph, ``2) b`` the list's next item). Text appended later never changes a block
    before that part.
    """
    blocks, starts, adjacent = _split(text, True)
    if not blocks:
        return [], len(text), 0
    if len(blocks) >= 2 and (adjacent or blocks[-2].kind in _LISTS):
        return blocks, starts[-2], 2
    return blocks, starts[-1], 1


_LISTS = ("bullet_list_open", "ordered_list_open")


def _split(text: str, last_to_end: bool) -> tuple[list[Block], list[int], bool]:
    """The blocks of ``text``, the offset each starts at, and whether the last one starts on
    the line right after the one before it (no blank line between them)."""
    tokens = _markdown_parser().parse(text)
    heads = [token for token in tokens if token.map is not None and token.level == 0]
    if not heads:
        return [], [], False
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    blocks: list[Block] = []
    starts: list[int] = []
    for index, token in enumerate(heads):
        assert token.map is not None
        start, end = token.map
        if index == len(heads) - 1 and last_to_end:
            end = len(lines)
        source = "\n".join(lines[start:end]).strip("\n")
        fence = token.markup if token.type == "fence" else ""
        blocks.append(Block(source=source, kind=token.type, fence=fence))
        starts.append(min(offsets[start], len(text)))
    last_line = heads[-1].map[0] if heads[-1].map else 0
    adjacent = last_line > 0 and bool(lines[last_line - 1].strip())
    return blocks, starts, adjacent


SECTION = "section"
"""The kind of a placeholder block: a stretch of a long message not parsed yet, which the view
replaces by its blocks when it comes near the viewport (see :func:`split_sections`)."""

SECTION_CHARS = 8_192
"""A section's least length: long enough that a message has few placeholders, short enough
that parsing the one on screen costs a few milliseconds."""

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_NO_SECTIONS = re.compile(r"^ {0,3}(?:<|\[[^\]]*\]:)", re.MULTILINE)
"""An HTML block (it may hold blank lines) or a link reference definition (a link anywhere
may use it): a text holding either is parsed whole."""


def split_sections(text: str, least: int = SECTION_CHARS) -> list[str]:
    """``text`` cut into sections of at least ``least`` characters whose blocks, parsed one
    section at a time, are exactly the blocks of the whole text (every section but the last
    parsed with ``last_to_end=False``); ``[text]`` when no such cut is known.

    A cut goes before a line that starts a new top-level block whatever came before: the line
    follows a blank line, starts at its first column, and is neither a list item (which a list
    above would continue) nor inside a fenced code block. A text with an HTML block or a link
    reference definition is never cut.
    """
    if len(text) < 2 * least or _NO_SECTIONS.search(text):
        return [text]
    sections: list[str] = []
    start = 0  # character offset of the current section
    offset = 0
    fence = ""
    blank_before = False
    for line in text.split("\n"):
        if fence:
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = ""
        else:
            if (
                blank_before
                and line[:1] not in ("", " ", "\t")
                and not _LIST_ITEM.match(line)
                and offset - start >= least
                and len(text) - offset >= least
            ):
                sections.append(text[start:offset])
                start = offset
            if opening := _FENCE.match(line):
                fence = opening.group(1)
        blank_before = not line.strip()
        offset += len(line) + 1
    sections.append(text[start:])
    return sections


def close_open_fence(block: Block) -> str:
    """The block's source with an unclosed code fence closed, for rendering a stream tail."""
    if block.kind != "fence" or not block.fence:
        return block.source
    lines = block.source.rstrip().split("\n")
    closing = lines[-1].strip() if len(lines) > 1 else ""
    fence_char = block.fence[0]
    if len(closing) >= len(block.fence) and set(closing) == {fence_char}:
        return block.source
    return f"{block.source}\n{block.fence}"


def code_of(block: Block) -> str:
    """The code inside a fenced or indented code block (empty for other blocks)."""
    if block.kind not in FENCE_KINDS:
        return ""
    for token in _markdown_parser().parse(close_open_fence(block)):
        if token.type in FENCE_KINDS:
            return token.content.rstrip("\n")
    return ""


def estimate_height(source: str, width: int) -> int:
    """A cheap guess of a block's rendered height, used until the block is rendered."""
    width = max(width - 2, 8)
    lines = source.split("\n")
    return sum(max(1, -(-len(line) // width)) for line in lines)


def make_console(palette: Palette) -> Console:
    """A private Rich console carrying the palette's ``markdown.*`` styles."""
    return Console(
        file=io.StringIO(),
        theme=palette.rich_theme,
        color_system="truecolor",
        force_terminal=True,
        legacy_windows=False,
        markup=False,
        emoji=False,
        highlight=False,
        width=80,
    )


def _is_blank(line: list[Segment]) -> bool:
    return all(not seg.text.strip() and not (seg.style and seg.style.bgcolor) for seg in line)


def _clickable(line: list[Segment]) -> list[Segment]:
    """Give link segments an ``@click`` action so Textual routes clicks to ``action_link``."""
    if not any(seg.style is not None and seg.style.link for seg in line):
        return line
    result = []
    for seg in line:
        style = seg.style
        if style is not None and style.link:
            style = style + Style.from_meta({"@click": f"link({style.link!r})"})
        result.append(Segment(seg.text, style, seg.control))
    return result


def render_lines(renderable: object, console: Console, width: int) -> list[Strip]:
    """Render any Rich renderable at ``width`` into padded strips without edge blank lines."""
    options = console.options.update(width=width, max_width=width, height=None)
    lines = console.render_lines(renderable, options, pad=True, new_lines=False)  # type: ignore[arg-type]
    start, end = 0, len(lines)
    while start < end and _is_blank(lines[start]):
        start += 1
    while end > start and _is_blank(lines[end - 1]):
        end -= 1
    return [Strip(_clickable(line), width) for line in lines[start:end]]


def render_block(
    block: Block,
    *,
    console: Console,
    palette: Palette,
    width: int,
    tail: bool = False,
    keep_lines: bool = False,
) -> list[Strip]:
    """Render one block; ``tail`` closes an open code fence first (the stream's last block);
    ``keep_lines`` breaks a paragraph at each of its line ends, as the user wrote it, instead
    of joining its lines as Markdown does.

    Every body line of the view is rendered here, from the whole block (a streamed escape
    sequence is whole by then), so this is where stored and streamed text is made printable:
    markdown-it keeps ``ESC`` bytes in code blocks and link targets, and Rich keeps them too.
    A bidi override shows as ``<U+202E>``, so no span is drawn in another order than it reads.
    """
    from weaver_tui.widgets.message_view.rich_markdown import ChatMarkdown

    source = reveal_bidi_controls(printable(close_open_fence(block) if tail else block.source))
    markdown = ChatMarkdown(
        source,
        code_theme=palette.code_theme,
        code_background=palette.code_background,
        keep_lines=keep_lines,
    )
    strips = render_lines(markdown, console, width)
    return strips or [Strip.blank(width)]


def render_text(text: Text, console: Console, width: int) -> list[Strip]:
    """Render a plain Rich ``Text`` (notices, error lines) wrapped at ``width``."""
    return render_lines(text, console, width) or [Strip.blank(width)]
