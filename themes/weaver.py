"""weaver's own Textual themes, and the colour variables every theme must carry.

The chat marks who said what with four colours: ``$user``, ``$assistant``, ``$tool`` and
``$private`` (a mediator reply meant for one participant). They are theme *variables*, so
stylesheets use them like ``$primary`` and switching theme recolours the marks.
:data:`ROLE_VARIABLE_DEFAULTS` gives the values used under themes that do not define them
(Textual's built-in ones), through ``App.get_theme_variable_defaults``.
"""

from __future__ import annotations

from pathlib import Path

from textual.theme import Theme

APP_STYLESHEET = Path(__file__).with_name("app.tcss")
"""The app's stylesheet: the chat screen's layout, sizes and colours (theme variables only)."""

ROLE_VARIABLE_DEFAULTS: dict[str, str] = {
    "user": "#5fafff",
    "assistant": "#87d787",
    "tool": "#d7af5f",
    "private": "#d787d7",
}
"""Fallback role colours for themes that do not set them (readable on dark and light)."""

WEAVER_DARK = Theme(
    name="weaver-dark",
    primary="#7aa2f7",
    secondary="#5a7ec2",
    accent="#e0af68",
    warning="#e0af68",
    error="#f7768e",
    success="#9ece6a",
    foreground="#d5d9e6",
    background="#16171f",
    surface="#1e2030",
    panel="#292c40",
    dark=True,
    variables={
        "user": "#7dcfff",
        "assistant": "#9ece6a",
        "tool": "#e0af68",
        "private": "#bb9af7",
        "footer-key-foreground": "#7aa2f7",
        "block-cursor-text-style": "none",
        "input-selection-background": "#7aa2f7 30%",
    },
)
"""The default theme: a calm dark blue-grey with soft role colours."""

WEAVER_LIGHT = Theme(
    name="weaver-light",
    primary="#2e5fb8",
    secondary="#4a6fa5",
    accent="#b5651d",
    warning="#a86a00",
    error="#c0293f",
    success="#2f7d32",
    foreground="#24262e",
    background="#f6f5f0",
    surface="#ebeae3",
    panel="#dddcd3",
    dark=False,
    variables={
        "user": "#1f5fa8",
        "assistant": "#2f7d32",
        "tool": "#8a5a00",
        "private": "#8e3fa8",
        "footer-key-foreground": "#2e5fb8",
        "block-cursor-text-style": "none",
        "input-selection-background": "#2e5fb8 25%",
    },
)
"""A light theme on warm paper, with role colours dark enough to read on it."""

WEAVER_THEMES: tuple[Theme, ...] = (WEAVER_DARK, WEAVER_LIGHT)
"""Every theme weaver registers at start, default first."""

DEFAULT_THEME = WEAVER_DARK.name
