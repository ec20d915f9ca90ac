"""The screens change a conversation only through the chat controller: no module under
``weaver_tui/screens`` or ``weaver_tui/widgets`` starts a turn on the runtime, takes a turn
lock, or calls the runtime's tree edits itself. The controller
(:mod:`weaver_tui.core.chat_controller`) is the one place those calls are made from the app, and it
applies their events to the state; the screen maps keys to it and its events to widgets."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TURN_CALLS = frozenset({"run_turn", "resume_turn", "exclusively", "conversation_turn"})
"""Runtime calls that start a turn or hold a conversation's turn lock."""

CONTROLLER_ONLY_MODULES = frozenset({"agents.runtime.tree_edits", "agents.runtime.user_message"})
"""Modules of the runtime only the controller uses (tree edits; building a user's message)."""


def _violations(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in TURN_CALLS:
                found.append((node.lineno, name))
        elif isinstance(node, ast.ImportFrom) and node.module in CONTROLLER_ONLY_MODULES:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend(
                (node.lineno, alias.name)
                for alias in node.names
                if alias.name in CONTROLLER_ONLY_MODULES
            )
    return sorted(found)


def test_screens_and_widgets_reach_the_runtime_only_through_the_controller() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for folder in ("screens", "widgets")
        for path in sorted((ROOT / "weaver_tui" / folder).rglob("*.py"))
        for line, name in _violations(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not offenders, f"call the chat controller instead: {offenders}"


def test_the_check_sees_turns_locks_and_edits() -> None:
    code = (
        "from agents.runtime.tree_edits import TreeEdits\n"
        "import agents.runtime.user_message\n"
        "runtime.run_turn(conversation_id=c)\n"
        "with conversation_turn(data, c):\n    pass\n"
        "runtime.exclusively(c, events)\n"
        "controller.answer(user_id)\n"
    )
    assert [name for _, name in _violations(ast.parse(code))] == [
        "agents.runtime.tree_edits",
        "agents.runtime.user_message",
        "run_turn",
        "conversation_turn",
        "exclusively",
    ]
