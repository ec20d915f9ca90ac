"""A long message is parsed a section at a time (the one on screen first): whatever the
Markdown, the blocks of its sections, parsed one by one, are exactly the blocks of the whole
text, so the view shows the same message however it was cut. Generated documents mix every
block kind, including those a cut could break (loose lists, fences holding blank lines, HTML
blocks, link reference definitions, blank lines of spaces, an unclosed fence)."""

from __future__ import annotations

from contextlib import nullcontext
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.widgets.message_view import MessageItem, MessageView, cache
from weaver_tui.widgets.message_view.blocks import SECTION, split_blocks, split_sections
from weaver_tui.widgets.message_view.cache import Entry

from .conftest import SIZE, HostApp, landed

SNIPPETS = (
    "A paragraph with *marks* and `code`.",
    "Two lines\nof one paragraph.",
    "# Heading",
    "Setext title\n===",
    "- item\n- item",
    "- loose item",
    "1. first",
    "2) second",
    "  continued item text",
    "    indented code",
    "```\ncode\n\nmore code\n```",
    "~~~~\ntilde\n\n```\nstill code\n~~~~",
    "```python\nunclosed fence\n\ncode",
    "> quoted\n> more",
    "> quoted",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "---",
    "***",
    "<div>\n\nhtml\n</div>",
    "<!-- a comment\n\nstill it -->",
    "[ref]: https://example.com",
    "A [link][ref] to it.",
    "-not a list item",
    "+ plus item",
    "  ",
    "\t",
)


def _blocks(blocks: list[object]) -> list[tuple[str, str, str]]:
    return [(b.source, b.kind, b.fence) for b in blocks]  # type: ignore[attr-defined]


def _sectioned(text: str, least: int) -> list[tuple[str, str, str]]:
    sections = split_sections(text, least)
    assert "".join(sections) == text
    last = len(sections) - 1
    return [
        block
        for index, section in enumerate(sections)
        for block in _blocks(list(split_blocks(section, last_to_end=index == last)[0]))
    ]


GAPS = ("\n", "\n\n", "\n  \n", "\n\n\n")


def documents_of(snippets: tuple[str, ...]) -> st.SearchStrategy[str]:
    """Up to 40 of ``snippets``, each followed by one of :data:`GAPS`."""
    return st.lists(
        st.tuples(st.sampled_from(snippets), st.sampled_from(GAPS)), min_size=1, max_size=40
    ).map(lambda parts: "".join(snippet + gap for snippet, gap in parts))


documents = documents_of(SNIPPETS)


@settings(max_examples=200, deadline=None)
@given(documents, st.integers(min_value=1, max_value=60))
def test_sections_parse_to_the_blocks_of_the_whole_text(text: str, least: int) -> None:
    assert _sectioned(text, least) == _blocks(list(split_blocks(text)[0]))


def _expanded(entry: Entry) -> list[tuple[str, str, str]]:
    """The entry's blocks once every placeholder section is parsed (as the view does when each
    comes near the viewport)."""
    assert entry.blocks is not None
    while any(block.kind == SECTION for block in entry.blocks):
        entry.expand_section(next(i for i, b in enumerate(entry.blocks) if b.kind == SECTION), 80)
    return _blocks(list(entry.blocks))


CUTTABLE = tuple(s for s in SNIPPETS if not s.startswith(("<", "[")))
"""The snippets of a text that may be cut (no HTML block, no link reference definition)."""

long_documents = st.lists(
    st.tuples(st.sampled_from(CUTTABLE), st.sampled_from(("\n", "\n\n", "\n  \n"))),
    min_size=1,
    max_size=40,
).map(lambda parts: "".join(snippet + gap for snippet, gap in parts))


def _streamed(text: str, cuts: list[int], *, sections: bool) -> list[tuple[str, str, str]]:
    """The blocks of ``text`` streamed into an entry in pieces ending at ``cuts``, finished,
    every placeholder parsed; ``sections=False``: with no cut into sections."""
    whole = patch.object(cache, "split_sections", lambda text: [text])
    with whole if not sections else nullcontext():
        entry = Entry.from_item(MessageItem(id="r", role="assistant", status="streaming"), 80)
        start = 0
        for cut in [*sorted(cuts), len(text)]:
            end = max(start, min(cut, len(text)))
            entry.pending.append(text[start:end])
            start = end
            entry.absorb_pending(80)
        entry.finish(MessageItem(id="r", role="assistant", content=text), 80)
        return _expanded(entry)


@settings(max_examples=60, deadline=None)
@given(long_documents, st.lists(st.integers(min_value=1, max_value=60_000), max_size=6))
def test_a_stream_in_any_pieces_ends_with_the_blocks_it_has_without_sections(
    text: str, cuts: list[int]
) -> None:
    """Whatever a frame absorbs at once (a few characters, or a fast stream's whole reply), a
    long stretch kept as placeholder sections parses, once finished, to the blocks the same
    stream gives parsed whole (and, cut between lines, to the blocks of the whole text)."""
    text = text * (40_000 // len(text) + 1)  # long enough to be cut into sections
    sectioned = _streamed(text, cuts, sections=True)
    assert sectioned == _streamed(text, cuts, sections=False)
    at_line_ends = [text.find("\n", cut) + 1 or len(text) for cut in cuts]
    assert _streamed(text, at_line_ends, sections=True) == _blocks(list(split_blocks(text)[0]))


def test_a_long_plain_message_is_cut_into_sections() -> None:
    text = "\n\n".join(f"Paragraph {n} " + "word " * 40 for n in range(400))
    sections = split_sections(text)
    assert len(sections) > 2
    assert _sectioned(text, 8_192) == _blocks(list(split_blocks(text)[0]))


def test_a_message_with_a_reference_definition_is_never_cut() -> None:
    text = "\n\n".join(f"Paragraph {n} " + "word " * 40 for n in range(400)) + "\n\n[r]: /x"
    assert split_sections(text) == [text]


def _long_reply(paragraphs: int) -> str:
    parts = []
    for n in range(paragraphs):
        parts.append(f"## Part {n}" if n % 7 == 0 else f"Paragraph {n}: " + "word " * 30)
        if n % 11 == 0:
            parts.append(f"```python\nprint({n})\n\nprint({n} + 1)\n```")
        if n % 13 == 0:
            parts.append(f"- item {n}\n\n- item {n} again")
    return "\n\n".join([*parts, "The very end."])


async def _pages(monkeypatch: pytest.MonkeyPatch, *, sections: bool) -> tuple[list[str], int]:
    """What the view shows of a long reply: at once (its end), then from the top page by page;
    and how many placeholder sections were left at once."""
    if not sections:
        monkeypatch.setattr(cache, "split_sections", lambda text: [text])
    reply = MessageItem(id="long", role="assistant", content=_long_reply(300))
    app = HostApp([MessageItem(id="q", role="user", content="Tell me all."), reply])
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        seen += view.visible_text()
        entry = view._layout.entries[-1]
        left = sum(block.kind == SECTION for block in entry.blocks or [])
        await pilot.press("home")
        await landed(view, pilot)
        for _ in range(8):
            seen += view.visible_text()
            await pilot.press("pagedown")
            await landed(view, pilot)
    monkeypatch.undo()
    return seen, left


async def test_a_long_reply_shows_its_end_at_once_and_pages_as_if_parsed_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sectioned, left = await _pages(monkeypatch, sections=True)
    whole, _ = await _pages(monkeypatch, sections=False)
    assert any("The very end." in line for line in sectioned[: SIZE[1]])
    assert left >= 3  # only the end was parsed to show it
    assert sectioned == whole


RESOLVED_ALONE = tuple(snippet for snippet in SNIPPETS if "[ref]" not in snippet)
"""Every snippet but link reference definitions and their links: each block is rendered on its
own, so a definition only ever serves the block it ends up in."""

documents_resolved_alone = documents_of(RESOLVED_ALONE)


@settings(max_examples=300, deadline=None)
@given(documents_resolved_alone, st.data())
def test_a_stream_cut_anywhere_ends_with_the_blocks_of_its_whole_text(
    text: str, data: st.DataObject
) -> None:
    """The class: however a reply is cut into the pieces a frame absorbs (mid-line, mid-word),
    the finished reply has exactly the blocks of its whole text. A line that started a block of
    its own while incomplete may, once complete, continue the block above (a table's row, a
    list's item after a blank line), so a stream parses the block above again too. Cuts fall
    anywhere, and often a character or two into a line, where a line is least complete."""
    line_starts = [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]
    near_a_line_start = st.tuples(st.sampled_from(line_starts), st.integers(1, 3)).map(sum)
    cut = st.one_of(st.integers(min_value=1, max_value=len(text)), near_a_line_start)
    cuts = data.draw(st.lists(cut, max_size=6))
    assert _streamed(text, cuts, sections=False) == _blocks(list(split_blocks(text)[0]))


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("| a | b |\n|---|---|\n| 1 | 2 |\n-not a list item\n", 31),
        ("2) second\n  \n2) second\n", 14),
    ],
)
def test_a_line_that_continues_the_block_above_once_complete(text: str, cut: int) -> None:
    assert _streamed(text, [cut], sections=False) == _blocks(list(split_blocks(text)[0]))
    assert len(_streamed(text, [cut], sections=False)) == 1


def test_every_block_followed_by_any_line_cut_near_its_start() -> None:
    """Every pair of snippets, with every gap, the stream cut one to three characters into the
    second: where a line is least complete (a few thousand cases, under a second)."""
    wrong = []
    for first in RESOLVED_ALONE:
        for gap in ("\n", "\n\n", "\n  \n"):
            for second in RESOLVED_ALONE:
                text = f"{first}{gap}{second}\n"
                start = len(first) + len(gap)
                whole = _blocks(list(split_blocks(text)[0]))
                for offset in (1, 2, 3):
                    if _streamed(text, [start + offset], sections=False) != whole:
                        wrong.append((text, start + offset))
    assert wrong == []
