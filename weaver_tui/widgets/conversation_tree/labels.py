"""How one message reads as one line of the conversation tree.

``role mark · v2/3 · marks · to whom · what it says · +N hidden`` (what it says, and to
whom, is worked out in :mod:`.summaries`; a version leaves out the words it starts with like
its siblings, so versions read apart). The version and the marks (status, patch, summary)
come first, where a narrow pane never cuts them: a line is cut at the pane's width. Colours come from the running theme's ``$user`` /
``$assistant`` / ``$tool`` / ``$private`` variables, so every weaver theme (and any Textual
theme, through the fallbacks) colours the marks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.color import Color, ColorParseError

from storage.import_meta import PATCH_ELSEWHERE
from storage.models import MessageRecord, MessageStatus
from storage.printable import printable
from weaver_tui.widgets.conversation_tree.summaries import EVERYONE, summary_parts

ROLE_MARKS: dict[str, str] = {"user": "●", "assistant": "◆", "tool": "⚙", "system": "■"}
"""One glyph per role, distinct at a glance even without colour."""

ACTIVE_MARK = "▌"
"""Drawn before every message on the active path (also shown in bold)."""

STATUS_MARKS: dict[MessageStatus, str] = {
    MessageStatus.STREAMING: "⋯ streaming",
    MessageStatus.CANCELLED: "⊘ cancelled",
    MessageStatus.ERROR: "✗ error",
}

OUTCOME_WORDS: dict[str, str] = {
    "refused": "refused",
    "filtered": "filtered",
    "truncated": "truncated",
    "unfinished": "unfinished",
    "empty": "empty reply",
}
"""How a failed reply that ended marked (``meta["outcome"]``) names its ending in the tree."""

PATCH_MARKS: dict[str, str] = {"applied": "✎ applied", "reverted": "↶ reverted"}
"""Where a patch was written to a file (and whether rewind has taken it back since)."""
ELSEWHERE_MARK = "✎ applied elsewhere"
"""An imported patch record: history, never offered for undo (:mod:`storage.import_meta`)."""

SUMMARY_MARK = "▤ summary"
"""On the record a summary of the branch above it is stored on."""

PRIVATE_MARK = "→"
"""Before the recipient of a private message ("→Alex Thank you for ..."), in ``$private``."""

# theme variable -> the generated Textual colours used when a theme does not define it
_THEME_FALLBACKS: dict[str, tuple[str, ...]] = {
    "user": ("user", "primary"),
    "assistant": ("assistant", "secondary", "primary"),
    "tool": ("tool", "warning"),
    "system": ("foreground-muted", "foreground"),
    "private": ("private", "accent", "warning"),
    "error": ("error",),
    "muted": ("foreground-muted", "text-muted", "foreground"),
    "active": ("accent", "primary"),
}


@dataclass(frozen=True, slots=True)
class LabelStyles:
    """Rich styles for the parts of a label, resolved from the theme's CSS variables."""

    roles: Mapping[str, Style]
    private: Style
    error: Style
    muted: Style
    active: Style

    @classmethod
    def from_variables(cls, variables: Mapping[str, str]) -> LabelStyles:
        def colour(name: str) -> Style:
            for key in _THEME_FALLBACKS[name]:
                value = variables.get(key)
                if not value:
                    continue
                try:
                    return Style(color=Color.parse(value.split()[0]).rich_color)
                except ColorParseError:
                    continue
            return Style()

        return cls(
            roles={role: colour(role) for role in ("user", "assistant", "tool", "system")},
            private=colour("private"),
            error=colour("error"),
            muted=colour("muted"),
            active=colour("active"),
        )

    @classmethod
    def plain(cls) -> LabelStyles:
        return cls.from_variables({})


def private_recipient(record: MessageRecord) -> str | None:
    """Whom a mediator record is for, when it is not shared with everyone."""
    visibility = record.meta.get("visibility")
    if visibility and visibility != "shared":
        return str(visibility)
    return None


def label_parts(
    record: MessageRecord,
    *,
    version: tuple[int, int],
    active: bool,
    hidden: int = 0,
    versions: Sequence[MessageRecord] = (),
) -> list[tuple[str, str]]:
    """The label as (text, part) pairs; ``part`` names the style: a role, ``active``,
    ``summary``, ``muted``, ``private`` or ``error``. Plain strings, so measuring a label
    (done for every line when the tree is laid out) costs no Rich rendering; printable ones,
    since every tree line is made here from what a message says and whom it is for."""
    parts = [
        (ACTIVE_MARK if active else " ", "active"),
        (ROLE_MARKS.get(record.role, "?"), record.role),
        (" ", "summary"),
    ]
    position, count = version
    if count > 1:
        parts.append((f"v{position}/{count} ", "muted"))
    # whom a message is for comes before what it says: the tree pane is narrow, and the
    # recipient matters more than the last words
    parts.extend(_marks(record))
    addressee, text = summary_parts(record, versions=versions)
    recipient = private_recipient(record)
    if addressee:
        shared = addressee == f"to {EVERYONE}: "
        parts.append((addressee, "muted" if shared else "private"))
    elif recipient:
        parts.append((f"{PRIVATE_MARK}{recipient} ", "private"))
    parts.append((text, "summary"))
    if hidden:
        parts.append((f"  +{hidden}", "muted"))
    return [(printable(text), part) for text, part in parts]


def _marks(record: MessageRecord) -> list[tuple[str, str]]:
    """The marks of a record's line, each followed by a space: its status (streaming,
    cancelled, error), what became of its patch, whether a summary is stored on it."""
    marks: list[tuple[str, str]] = []
    status = STATUS_MARKS.get(record.status)
    if status and record.meta.get("outcome") in OUTCOME_WORDS:  # a marked reply: how it ended
        status = f"✗ {OUTCOME_WORDS[record.meta['outcome']]}"
    if status:
        marks.append((f"{status} ", "error" if record.status is MessageStatus.ERROR else "muted"))
    patch = PATCH_MARKS.get(str(record.meta.get("patch_status")))
    if patch and record.role == "tool":
        marks.append((f"{patch} ", "active"))
    elif record.role == "tool" and record.meta.get(PATCH_ELSEWHERE):
        marks.append((f"{ELSEWHERE_MARK} ", "muted"))
    if record.meta.get("summary"):
        marks.append((f"{SUMMARY_MARK} ", "muted"))
    return marks


def label_width(parts: list[tuple[str, str]]) -> int:
    return sum(cell_len(text) for text, _ in parts)


def build_label(parts: list[tuple[str, str]], styles: LabelStyles, *, active: bool) -> Text:
    """Style the parts of a label: role colours, bold content on the active path."""
    bold = Style(bold=True) if active else Style()
    named = {
        "active": styles.active,
        "summary": bold,
        "muted": styles.muted,
        "private": styles.private,
        "error": styles.error,
    }
    text = Text(no_wrap=True, end="")
    for chunk, part in parts:
        text.append(chunk, named.get(part) or styles.roles.get(part, Style()))
    return text
