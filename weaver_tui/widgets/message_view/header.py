"""The one-line header above each message, a reply's thinking, and the error notice.

Header: ``▌ assistant · gpt-4o · 1.2s  [private → Alex]  < 2/3 >  cancelled``. The role mark
takes the role colour; the ``<`` / ``>`` arrows carry ``@click`` actions that ask the view to
flip versions, so a mouse user gets the same action as the ``[`` / ``]`` keys.

Header, thinking and notice text is made printable here (the body in
:func:`.blocks.render_block`): a provider or an import may hold escape sequences that must never
reach the terminal.

Thinking: ``▸ Thinking (1,234 chars)`` folded, dim, under the header; unfolded (key ``t`` or a
click on the line) it reads ``▾ Thinking ...`` with the reasoning below it, dim as well.
"""

from __future__ import annotations

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from storage.printable import printable
from weaver_tui.core.message_item import MessageItem
from weaver_tui.widgets.message_view.blocks import render_text
from weaver_tui.widgets.message_view.palette import Palette

STATUS_LABELS = {"streaming": "streaming ...", "cancelled": "cancelled", "error": "error"}


def header_text(item: MessageItem, palette: Palette) -> Text:
    """The header as styled text (no selection highlight)."""
    role_style = palette.role(item.role)
    title = printable(item.badge or item.role)
    head, sep, rest = title.partition(" · ")
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    text.append("▌ ", role_style)
    text.append(head, role_style)
    if sep:
        text.append(f" · {rest}", palette.muted)
    if item.visibility:
        text.append("  ")
        text.append(f"[{printable(item.visibility)}]", palette.private)
    if item.has_versions:
        flip = f"flip_version({item.id!r}, "
        text.append("  ")
        text.append("<", palette.accent + Style.from_meta({"@click": f"{flip}-1)"}))
        text.append(f" {item.version}/{item.sibling_count} ", palette.muted)
        text.append(">", palette.accent + Style.from_meta({"@click": f"{flip}1)"}))
    label = STATUS_LABELS.get(item.status)
    if label:
        style = {"streaming": palette.accent, "cancelled": palette.warning}.get(
            item.status, palette.error
        )
        text.append(f"  {label}", style)
    return text


def render_header(
    item: MessageItem, palette: Palette, console: Console, width: int, *, selected: bool
) -> Strip:
    """The header line at ``width``; the selected message's header gets the highlight."""
    text = header_text(item, palette)
    if selected:
        text.stylize(palette.selected_header)
        text.append(" " * max(0, width - text.cell_len), palette.selected_header)
    segments = list(text.render(console))
    return Strip(segments).crop_extend(0, width, None)


def render_notice(item: MessageItem, palette: Palette, console: Console, width: int) -> list[Strip]:
    """The inline error block under a failed reply, with the retry hint."""
    text = Text()
    text.append("✗ ", palette.error)
    text.append(printable(item.error), palette.error)
    text.append("  (r: retry)", palette.muted)
    return render_text(text, console, width)


def thinking_label(reasoning: str, *, unfolded: bool) -> str:
    mark = "▾" if unfolded else "▸"
    return f"{mark} Thinking ({len(reasoning):,} chars)"


def render_thinking(
    message_id: str,
    reasoning: str,
    palette: Palette,
    console: Console,
    width: int,
    *,
    unfolded: bool,
) -> list[Strip]:
    """The thinking line (a click on it folds or unfolds), and the reasoning when unfolded."""
    click = Style.from_meta({"@click": f"toggle_thinking({message_id!r})"})
    line = Text(no_wrap=True, overflow="ellipsis", end="")
    line.append(thinking_label(reasoning, unfolded=unfolded), palette.muted + click)
    strips = [Strip(list(line.render(console))).crop_extend(0, width, None)]
    if unfolded:
        body = Text(printable(reasoning).strip("\n"), palette.muted + Style(italic=True))
        strips += render_text(body, console, width)
    return strips
