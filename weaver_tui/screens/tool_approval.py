"""The question a paused turn asks before it runs a tool of the user's MCP servers.

``o`` runs this call once, ``a`` runs it and every later call of this tool in this
conversation, ``d`` denies it (the model reads a refusal), ``Esc`` decides later (the turn
stays paused; the palette's "Answer tool approval" asks again, also after a restart).
"""

from __future__ import annotations

import json
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from agents.graph.approval import ApprovalQuestion, Decision
from storage.printable import printable
from weaver_tui.widgets.footer import WeaverFooter

ARGS_CHARS = 2_000
"""The most of a call's arguments shown (they come from the model: untrusted, printable)."""


class ToolApprovalScreen(ModalScreen[Decision | None]):
    """Ask whether one tool call may run; dismisses with the decision (``None``: later)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "decide('once')", "Run once"),
        Binding("a", "decide('always')", "Always in this conversation"),
        Binding("d,n", "decide('deny')", "Deny"),
        Binding("escape", "later", "Decide later"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | o | Run this call once. |
    | a | Run it, and every call of this tool in this conversation, without asking. |
    | d, n | Deny: the tool is not run; the model is told. |
    | escape | Decide later: close, the turn stays paused. |
    """
    DEFAULT_CSS = """
    ToolApprovalScreen {
        align: center middle;
        background: $background 60%;
        & > #approval-dialog {
            width: 80%;
            height: auto;
            max-height: 80%;
            padding: 0 1;
            border: thick $warning 70%;
            border-title-style: bold;
            background: $surface;
        }
        & #approval-args { margin-top: 1; color: $text-muted; }
    }
    """

    def __init__(self, question: ApprovalQuestion) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        question = self.question
        with Vertical(id="approval-dialog") as dialog:
            dialog.border_title = "Run this tool?"
            yield Static(
                Content.from_markup(
                    "The MCP server [b]$server[/] would run [b]$tool[/].\n"
                    "[dim]o once · a always in this conversation · d deny · Esc later[/]",
                    server=printable(question.server or "?"),
                    tool=printable(question.tool),
                ),
                id="approval-question",
            )
            args = json.dumps(question.args, ensure_ascii=False, indent=2)
            yield Static(Content(printable(args)[:ARGS_CHARS]), id="approval-args")
        yield WeaverFooter()

    def action_decide(self, decision: Decision) -> None:
        self.dismiss(decision)

    def action_later(self) -> None:
        self.dismiss(None)
