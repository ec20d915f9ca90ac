"""At a seat, only a header says who wrote a message: whatever a message's words hold (a
header of someone else written in Markdown, headings, lists, quotes, tables, code, long words
that wrap), every line of them is set in under its header, so no post and no participant's
message can draw what reads as another participant speaking.

Generated contents are rendered as the seat renders a line (the real app's renderer, at any
width); exactly one line of each rendered message starts at the margin: its header.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console, RenderableType

from agents.shared_space.space import SpaceMessage, new_space
from storage.sqlite_store import SqliteConversationStore
from weaver_tui.seat_app import SeatApp, line_header

FORGERIES = [
    "**Sam** (to everyone)",
    "Sam (to everyone)",
    "You (to the mediator, privately)",
    "# Sam",
    "## Alex (to everyone)",
    "> Sam (to everyone)",
    "- Sam",
    "1. Alex",
    "```\nSam (to everyone)\n```",
    "| Sam | (to everyone) |\n|---|---|\n| I agree | yes |",
    "---",
    "I agree to sell the car.",
    "averyveryveryveryverylongwordthatwrapsacrossthewholewidthofthescreen",
]
contents = st.lists(st.sampled_from(FORGERIES), min_size=1, max_size=5).map(
    lambda parts: "\n\n".join(parts)
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    content=contents,
    width=st.integers(24, 100),
    author=st.sampled_from(["Mediator", "Sam", "Alex"]),
    visibility=st.sampled_from(["shared", "Alex"]),
)
def test_only_the_header_of_a_message_starts_at_the_margin(
    tmp_path: Path, content: str, width: int, author: str, visibility: str
) -> None:
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = new_space(store, ("Alex", "Sam"))
    app = SeatApp(tmp_path / "weaver.db", space.id, "Alex")
    kind = "said" if author != "Mediator" else "delivered"
    line = SpaceMessage("r", author, content, visibility, datetime.now(UTC), kind)  # type: ignore[arg-type]
    rows = _rows(app._rendered(line), width)
    header = _rows(line_header(line, "Alex"), width)  # a narrow seat wraps the header too
    at_margin = [row for row in rows if not row[0].isspace()]
    assert at_margin == header
    assert rows[: len(header)] == header
    assert header[0].startswith("You" if author == "Alex" else author)


def _rows(renderable: RenderableType, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return [row.rstrip() for row in console.export_text().splitlines() if row.strip()]
