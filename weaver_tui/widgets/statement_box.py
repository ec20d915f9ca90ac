"""The statements of a shared space, as a seat and the host's mediator panel show them, with
its agenda (each topic's state) and, in the host's panel, the fairness meter.

The current statement (the newest one not yet agreed) shows its versions side by side, the
newest last, and under them who has answered the newest: an answer's value only where the
board (read for this viewer: :func:`agents.shared_space.statements.statement_board`) holds
it, so what a viewer may not read never reaches this widget. Agreed statements are listed
with their version and time. The widget draws what it is given and reads nothing itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from storage.audience import viewer_key
from storage.printable import printable

if TYPE_CHECKING:  # the chat screen loads this before the agent stack
    from agents.shared_space.agenda import AgendaTopic
    from agents.shared_space.statements import Statement

SIDE_BY_SIDE = 3
"""Versions shown next to each other (the newest ones)."""

MARKS = {"agree": "✓ agrees", "partly": "~ partly", "disagree": "✗ disagrees"}


def same_name(a: str, b: str) -> bool:
    return viewer_key(a) == viewer_key(b)


def answers_line(statement: Statement, participants: Sequence[str], viewer: str | None) -> Text:
    """Who has answered the newest version (and, where the viewer may read it, what)."""
    latest = statement.latest
    text = Text(f"Answers to {statement.key} v{latest.number}: ", style="bold")
    answers = statement.answers.get(statement.latest.record_id, [])
    for index, name in enumerate(participants):
        found = next((a for a in answers if same_name(a.participant, name)), None)
        who = "you" if viewer is not None and same_name(viewer, name) else printable(name)
        if index:
            text.append(" · ")
        if found is None:
            text.append(f"{who} … not yet", style="dim")
        elif found.answer is None:
            text.append(f"{who} ● answered")
        else:
            text.append(f"{who} {MARKS[found.answer]}")
            if found.critique:
                text.append(f' ("{printable(found.critique)}")', style="italic")
    return text


STATE_MARKS = {"open": "○", "statement proposed": "◐", "agreed": "✔"}


def agenda_line(agenda: Sequence[AgendaTopic]) -> Text:
    """``Agenda: ✔ budget (agreed) · ○ holiday (open)``."""
    text = Text("Agenda: ", style="bold")
    for index, item in enumerate(agenda):
        if index:
            text.append(" · ")
        text.append(f"{STATE_MARKS[item.state]} {printable(item.topic)} ({item.state})")
    return text


def statements_renderable(
    statements: Sequence[Statement],
    participants: Sequence[str],
    viewer: str | None,
    agenda: Sequence[AgendaTopic] = (),
    meter: str | None = None,
) -> RenderableType | None:
    """The box's content, or ``None`` when the space has no agenda, statement or meter yet."""
    if not statements and not agenda and not meter:
        return None
    from agents.shared_space.statements import current_open  # drawn after the first paint

    parts: list[RenderableType] = []
    if agenda:
        parts.append(agenda_line(agenda))
    if meter:
        parts.append(Text(printable(meter), style="dim"))
    current = current_open(statements)
    if current is not None:
        table = Table(
            title=f"Statement {current.key} · {printable(current.topic)}",
            title_justify="left",
            expand=True,
            show_edge=False,
        )
        shown = current.versions[-SIDE_BY_SIDE:]
        for version in shown:
            newest = version is current.latest
            table.add_column(f"v{version.number}" + (" (to answer)" if newest else ""), ratio=1)
        table.add_row(
            *(Text(printable(v.text), style="" if v is current.latest else "dim") for v in shown)
        )
        # who has answered first: a box cut short by a small terminal still shows it
        parts += [answers_line(current, participants, viewer), table]
    for statement in statements:
        if statement.agreed is not None:
            at = statement.agreed.at.astimezone().strftime("%Y-%m-%d %H:%M")
            version = next(v for v in statement.versions if v.number == statement.agreed.number)
            line = Text(f"✔ Agreed {statement.key} v{statement.agreed.number} ", style="bold green")
            line.append(f"({printable(statement.topic)}, {at}): ", style="green")
            line.append(printable(version.text))
            parts.append(line)
    return Group(*parts)


class StatementBox(Static):
    """The statements of one space for one viewer (``None``: the facilitator's panel)."""

    DEFAULT_CSS = """
    StatementBox { height: auto; max-height: 40vh; padding: 0 1; }
    StatementBox.-empty { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty", markup=False)
        self.statements: tuple[Statement, ...] = ()

    def show_statements(
        self,
        statements: Sequence[Statement],
        participants: Sequence[str],
        viewer: str | None,
        agenda: Sequence[AgendaTopic] = (),
        meter: str | None = None,
    ) -> None:
        self.statements = tuple(statements)
        content = statements_renderable(statements, participants, viewer, agenda, meter)
        self.set_class(content is None, "-empty")
        self.update("" if content is None else content)
