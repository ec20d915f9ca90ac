"""Block splitting: markdown-it's line ranges, streamed splits equal one-shot splits."""

from __future__ import annotations

import random

from weaver_tui.core.message_item import MessageItem
from weaver_tui.widgets.message_view.blocks import Block, close_open_fence, code_of, split_blocks
from weaver_tui.widgets.message_view.cache import Entry

REPLY = """# Plan

First paragraph
continues here.

- one
- two

  still item two

```python
def f():

    return 1
```

> quoted
> text

1. a
2. b

Last words."""


def test_split_follows_markdown_it_top_level_blocks() -> None:
    blocks, last_start = split_blocks(REPLY)
    assert [b.kind for b in blocks] == [
        "heading_open",
        "paragraph_open",
        "bullet_list_open",
        "fence",
        "blockquote_open",
        "ordered_list_open",
        "paragraph_open",
    ]
    # A blank line inside a list item or a fence does not split the block.
    assert blocks[2].source == "- one\n- two\n\n  still item two"
    assert blocks[3].source.endswith("return 1\n```")
    assert blocks[3].fence == "```"
    assert REPLY[last_start:] == "Last words."


def test_streaming_in_random_pieces_gives_the_same_blocks_as_one_split() -> None:
    expected = [(b.kind, b.source) for b in split_blocks(REPLY)[0]]
    rng = random.Random(3)
    for _ in range(20):
        entry = Entry.from_item(MessageItem(id="r", role="assistant", status="streaming"), 80)
        entry.split(80)
        position = 0
        while position < len(REPLY):
            size = rng.randint(1, 12)
            entry.pending.append(REPLY[position : position + size])
            position += size
            if rng.random() < 0.5:
                entry.absorb_pending(80)
                assert entry.text == REPLY[:position] or entry.text == REPLY
        entry.finish(MessageItem(id="r", role="assistant", content=REPLY), 80)
        assert entry.text == REPLY
        assert [(b.kind, b.source) for b in entry.blocks or []] == expected


def test_an_open_fence_is_closed_for_rendering_and_code_is_extracted() -> None:
    open_fence = Block(source="~~~~js\nlet a = 1;\n~~", kind="fence", fence="~~~~")
    assert close_open_fence(open_fence) == "~~~~js\nlet a = 1;\n~~\n~~~~"
    closed = Block(source="```\nx = 1\n```", kind="fence", fence="```")
    assert close_open_fence(closed) == closed.source
    assert code_of(closed) == "x = 1"
    assert code_of(Block(source="plain", kind="paragraph_open")) == ""


def test_the_block_only_parser_finds_the_blocks_the_full_parser_finds() -> None:
    """Splitting skips markdown-it's inline pass; the block structure must not change."""
    from tests.support.openai_script import markdown_tokens
    from weaver_tui.widgets.message_view.rich_markdown import BLOCK_PARSER, PARSER

    extra = (
        "| a | b |\n|---|---|\n| 1 | ~~2~~ |\n\n[ref]: https://example.com\n\n"
        "Text with [a link][ref], `code`, *emphasis* and <b>html</b>.\n\n"
        "<div>\nblock html\n</div>\n\n    indented code\n\n***\n\nSetext\n======\n"
    )
    for text in (REPLY, extra, "".join(markdown_tokens(3000))):
        full = [(t.type, t.map, t.markup) for t in PARSER.parse(text) if t.level == 0 and t.map]
        blocks = [
            (t.type, t.map, t.markup) for t in BLOCK_PARSER.parse(text) if t.level == 0 and t.map
        ]
        assert blocks == full
        assert not any(t.type == "inline" and t.children for t in BLOCK_PARSER.parse(text))
