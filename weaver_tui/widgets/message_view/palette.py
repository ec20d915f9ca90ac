"""The app's Textual theme, mapped onto the Rich styles the message view renders with.

The view renders Markdown with Rich (not with Textual widgets), so Textual's CSS variables do
not reach it by themselves: this module resolves them once per theme into a Rich ``Theme`` for
``markdown.*`` styles plus the few styles the header and overlays need. weaver's themes define
the extra variables ``user``, ``assistant``, ``tool`` and ``private``; any other theme falls back
to the readable text variants of primary, secondary and warning.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.theme import Theme as RichTheme
from textual.color import Color, ColorParseError
from textual.theme import Theme

DARK_CODE_THEME = "monokai"
LIGHT_CODE_THEME = "friendly"

_ROLE_FALLBACKS = {
    "user": ("user", "text-primary", "primary"),
    "assistant": ("assistant", "text-secondary", "secondary"),
    "tool": ("tool", "text-warning", "warning"),
    "system": ("system", "text-muted", "foreground"),
    "private": ("private", "text-accent", "accent"),
}


@dataclass(frozen=True, slots=True)
class Palette:
    """Every colour the message view draws with, resolved for one theme and background."""

    name: str
    dark: bool
    roles: dict[str, Style]
    private: Style
    muted: Style
    error: Style
    warning: Style
    accent: Style
    selected_header: Style
    code_theme: str
    code_background: str
    jump: Style
    rich_theme: RichTheme

    def role(self, role: str) -> Style:
        """The style of a role mark; unknown roles look like system lines."""
        return self.roles.get(role, self.roles["system"])


def _resolve(variables: dict[str, str], background: Color, *names: str) -> Color:
    """The first variable of ``names`` that parses, flattened onto ``background``.

    Values such as ``auto 60%`` (Textual's contrast text) become the contrasting colour at that
    alpha, so every result is an opaque colour Rich can draw.
    """
    for name in names:
        value = variables.get(name)
        if not value:
            continue
        value = value.strip()
        if value.startswith("auto"):
            percent = value.removeprefix("auto").strip().rstrip("%") or "95"
            try:
                alpha = float(percent) / 100
            except ValueError:
                alpha = 0.95
            return background + background.get_contrast_text(alpha)
        try:
            return background + Color.parse(value)
        except ColorParseError:
            continue
    return background.get_contrast_text(0.9)


def build_palette(theme: Theme, background: Color | None = None) -> Palette:
    """Resolve ``theme`` (and its extra variables) into Rich styles on ``background``."""
    variables = {**theme.to_color_system().generate(), **theme.variables}
    if background is None or background.a == 0:
        background = Color.parse(variables.get("surface") or variables["background"])

    def color(*names: str) -> str:
        return _resolve(variables, background, *names).hex

    roles = {role: Style(color=color(*names), bold=True) for role, names in _ROLE_FALLBACKS.items()}
    muted = Style(color=color("text-muted"))
    primary = _resolve(variables, background, "primary")
    heading = color("markdown-h1-color", "text-primary")
    link = color("text-primary", "primary")
    code_bg = background.blend(background.get_contrast_text(1.0), 0.06 if theme.dark else 0.05)
    inline_code_bg = background.blend(background.get_contrast_text(1.0), 0.10)
    rich_theme = RichTheme(
        {
            "markdown.h1": Style(color=heading, bold=True),
            "markdown.h2": Style(color=heading, bold=True, underline=True),
            "markdown.h3": Style(color=heading, bold=True),
            "markdown.h4": Style(bold=True, underline=True),
            "markdown.h5": Style(bold=True),
            "markdown.h6": Style(bold=True, dim=True),
            "markdown.h1.border": Style(color=heading),
            "markdown.code": Style(
                color=color("text-accent", "accent"), bgcolor=inline_code_bg.hex
            ),
            "markdown.code_block": Style(bgcolor=code_bg.hex),
            "markdown.block_quote": Style(color=color("text-muted")),
            "markdown.list": Style(color=color("text-primary")),
            "markdown.item.bullet": Style(color=color("text-primary"), bold=True),
            "markdown.item.number": Style(color=color("text-primary")),
            "markdown.hr": Style(color=color("text-muted")),
            "markdown.link": Style(color=link, underline=True),
            "markdown.link_url": Style(color=link, underline=True),
            "markdown.table.border": Style(color=color("text-muted")),
            "markdown.table.header": Style(color=heading, bold=True),
            "markdown.kbd": Style(color=color("text-accent", "accent"), bold=True),
        },
        inherit=True,
    )
    return Palette(
        name=theme.name,
        dark=theme.dark,
        roles=roles,
        private=Style(color=color("private", "text-accent", "accent"), italic=True),
        muted=muted,
        error=Style(color=color("text-error", "error"), bold=True),
        warning=Style(color=color("text-warning", "warning"), bold=True),
        accent=Style(color=color("text-accent", "accent")),
        selected_header=Style(bgcolor=background.blend(primary, 0.35).hex),
        code_theme=DARK_CODE_THEME if theme.dark else LIGHT_CODE_THEME,
        code_background=code_bg.hex,
        jump=Style(color=primary.get_contrast_text(1.0).hex, bgcolor=primary.hex, bold=True),
        rich_theme=rich_theme,
    )
