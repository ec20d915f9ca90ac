"""Rich's ``Markdown`` as the message view renders it: left headings, themed code blocks, one
shared markdown-it parser. Split from :mod:`.blocks` so markdown-it, Rich's Markdown and pygments
are imported when the first block is split or rendered, not while the app paints its first frame.
"""

from __future__ import annotations

from typing import ClassVar

from markdown_it import MarkdownIt
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import CodeBlock, Heading, Markdown, MarkdownElement
from rich.syntax import Syntax

PARSER = MarkdownIt("commonmark").enable(["strikethrough", "table"])
"""Rich's own settings (``MarkdownIt().enable("strikethrough").enable("table")``)."""

BLOCK_PARSER = MarkdownIt("commonmark").enable(["strikethrough", "table"])
BLOCK_PARSER.core.ruler.enableOnly(["normalize", "block"])
"""The same settings, block structure only: where blocks start and end and a fence's code,
without the inline parse (links, emphasis ...) that only rendering needs; about 40 % less
time per streamed flush on Markdown replies."""


_lexers: dict[str, Lexer | str] = {}


def lexer_for(name: str) -> Lexer | str:
    """A shared pygments lexer for a fence's language, built once per name.

    Rich's ``Syntax`` otherwise looks the name up (a scan of pygments' lexer table) and builds a
    new lexer on every render, which a streamed code block does every frame. Lexers keep only
    their options, so one instance serves every block. An unknown name is returned as it is,
    for Rich to treat as it always does.
    """
    lexer = _lexers.get(name)
    if lexer is None:
        try:  # the options Rich's Syntax passes (its default tab size is 4)
            lexer = get_lexer_by_name(name, stripnl=False, ensurenl=True, tabsize=4)
        except ClassNotFound:
            lexer = name
        _lexers[name] = lexer
    return lexer


class _LeftHeading(Heading):
    """Headings aligned left: a centred title reads oddly inside a chat message."""

    LEVEL_ALIGN = dict.fromkeys(("h1", "h2", "h3", "h4", "h5", "h6"), "left")


class _ThemedCodeBlock(CodeBlock):
    """A code block on the theme's code background, highlighted with its pygments style."""

    background = "default"

    @classmethod
    def create(cls, markdown: Markdown, token: object) -> _ThemedCodeBlock:
        block = super().create(markdown, token)  # type: ignore[arg-type]
        assert isinstance(block, _ThemedCodeBlock)
        block.background = getattr(markdown, "code_background", "default")
        return block

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        yield Syntax(
            code,
            lexer_for(self.lexer_name),
            theme=self.theme,
            word_wrap=True,
            padding=(0, 1),
            background_color=self.background,
        )


class ChatMarkdown(Markdown):
    """Rich ``Markdown`` with left headings, themed code blocks and one shared parser.

    Rich builds a new markdown-it parser per instance (~0.6 ms); a chat renders hundreds of
    blocks, so this subclass parses with the module's parser instead.
    """

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "heading_open": _LeftHeading,
        "fence": _ThemedCodeBlock,
        "code_block": _ThemedCodeBlock,
    }

    def __init__(
        self, markup: str, *, code_theme: str, code_background: str, keep_lines: bool = False
    ) -> None:
        self.markup = markup
        self.parsed = PARSER.parse(markup)
        if keep_lines:  # every line end a line break (a soft break would become a space)
            for token in self.parsed:
                for child in token.children or ():
                    if child.type == "softbreak":
                        child.type = "hardbreak"
        self.code_theme = code_theme
        self.code_background = code_background
        self.justify = None
        self.style = "none"
        self.hyperlinks = True
        self.inline_code_lexer = None
        self.inline_code_theme = code_theme


WARM_LANGUAGES = ("python", "bash", "json", "text")
"""Fence languages whose pygments lexers are compiled ahead of the first reply."""


def warm_up() -> None:
    """Render a small sample once, off the event loop (a thread), so the first streamed reply
    does not pay the one-time costs in a frame: compiling a pygments lexer's regexes (~100 ms
    for Python on this machine), Rich's and markdown-it's first-use setup."""
    import io

    console = Console(file=io.StringIO(), force_terminal=True, width=80, color_system="truecolor")
    fences = "\n\n".join(f"```{name}\nx = 1\n```" for name in WARM_LANGUAGES)
    sample = f"# Title\n\nSome *text* with `code`.\n\n- a\n- b\n\n1. one\n\n> quote\n\n{fences}\n"
    markdown = ChatMarkdown(sample, code_theme="monokai", code_background="default")
    console.render_lines(markdown, console.options)
