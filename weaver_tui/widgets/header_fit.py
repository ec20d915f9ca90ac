"""Fitting the chat header's fields into the terminal's width, whole words only.

Each field offers its forms, longest first (the branch: ``branch 2/3 · depth 7``, then
``branch 2/3``); the title is the one flexible field and takes the width the others leave, cut
after its last whole word that fits (with an ellipsis); it asks for :data:`TITLE_MIN` cells
until its turn to give way comes, and after that keeps only what is left. When the fields do not fit, they give
way in :data:`GIVE_WAY` order, lowest priority first, each step taking a field to its next
shorter form or, after the last, off the line: a field is shown whole or not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.cells import cell_len

TITLE_MIN = 12
"""Cells the title needs to be worth showing (a few words); with less it gives way."""

GIVE_WAY = (
    "agents_md", "instructions", "context", "project", "context", "model", "branch", "branch", "title",
    "busy", "model", "profile",
)  # fmt: skip
"""Which field shortens (or goes) next when the line is too long, lowest priority first:
the project's AGENTS.md badge, the instructions mark's word, the context count's unit, the project folder, the count, the provider's name before the model's, the branch's depth and then the
branch itself, the title's claim to a few words, the busy word, the model, and the profile."""

_PIECES = re.compile(
    r"\s+|[\u1100-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[^\s\u1100-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+"
)
"""Words, spaces, and single wide (CJK) characters, each of which may end a cut title."""


@dataclass(frozen=True, slots=True)
class HeaderField:
    """One field of the header: its forms (longest first) and its component class."""

    key: str
    forms: tuple[str, ...]
    style: str


def cut_words(text: str, room: int) -> str:
    """``text`` if it fits ``room`` cells, else its whole words that fit and an ellipsis
    (``""`` when not even one word fits)."""
    if cell_len(text) <= room:
        return text
    shown, used = "", 0
    for piece in _PIECES.findall(text):
        size = cell_len(piece)
        if used + size > room - 1:
            break
        shown, used = shown + piece, used + size
    shown = shown.rstrip()
    return f"{shown}…" if shown else ""


def fit(fields: list[HeaderField], width: int, title_key: str = "title") -> list[tuple[str, str]]:
    """(text, style) of each field shown, left to right, each drawn as `` text `` and the
    title padded to fill ``width``; the texts never break a word."""
    chosen = {field.key: 0 for field in fields}

    def needed() -> int:
        total = 0
        for field in fields:
            form = chosen[field.key]
            if form >= len(field.forms):
                continue
            if field.key == title_key:
                total += min(cell_len(field.forms[0]), TITLE_MIN) + 2
            else:
                total += cell_len(field.forms[form]) + 2
        return total

    for key in GIVE_WAY:
        if needed() <= width:
            break
        if key in chosen:
            chosen[key] += 1
    shown = [
        (
            field.forms[min(chosen[field.key], len(field.forms) - 1)],
            field.style,
            field.key == title_key,
        )
        for field in fields
        if chosen[field.key] < len(field.forms) or field.key == title_key
    ]
    others = sum(cell_len(text) + 2 for text, _, is_title in shown if not is_title)
    room = max(width - others, 0)
    line: list[tuple[str, str]] = []
    for text, style, is_title in shown:
        if is_title:
            title = cut_words(text, room - 2) if room > 2 else ""
            title = f" {title}" if title else ""
            line.append((title + " " * (room - cell_len(title)), style))
            room = 0
        else:
            line.append((f" {text} ", style))
    return line
