"""No text the app shows is read as Textual markup unless it is the app's own constant: a title,
a file name (``app/[slug]/page.tsx``), a model id, a participant's name, a model's words or an
error that quotes any of them shows as written. Read as markup, ``[gpt-4]`` would vanish,
``[/x]`` would fail the render, and ``[@click=app.quit]`` would make a link that runs an
action: authority carried by data.

Checked two ways. By reading the code: every ``Static`` or ``Label`` built from anything but a
string literal, or built with an ``id`` (so something may update it later), and every widget
class built on them, passes ``markup=False`` (or is given ``Content`` / ``Text``, which are
never parsed); the apps' ``notify`` sends every message with ``markup=False``. And by running
the app: generated text full of markup and control characters, through a notification and a
confirmation that quotes a title, shows as :func:`storage.printable.printable` of it, with no
style, link or action taken from it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Label

from storage.printable import printable
from tests.ui_app.conftest import SIZE, chat_ready, new_app, settle
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = {"Static", "Label"}
MARKUP = ["[/x]", "[@click=app.quit]", "[b]", "[/]", "[link='http://evil.example']", "[gpt-4]",
          "[$accent]", "app/[slug]/page.tsx", "[", "]", "\\[", "\x1b[31m", "[red on blue]"]  # fmt: skip
markupish = st.lists(st.sampled_from(MARKUP) | st.text(max_size=6), min_size=1, max_size=8).map(
    "".join
)


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)


def _plain(call: ast.Call) -> bool:
    return any(
        k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in call.keywords
    )


def _constant_text(call: ast.Call) -> bool:
    first = call.args[0] if call.args else None
    has_id = any(k.arg == "id" for k in call.keywords)
    return isinstance(first, ast.Constant) and isinstance(first.value, str) and not has_id


def _never_parsed(call: ast.Call) -> bool:
    """Given ``Content(...)``, ``Text(...)`` or ``Content.from_markup(constant, **values)``."""
    first = call.args[0] if call.args else None
    if not isinstance(first, ast.Call):
        return False
    if _name(first.func) in ("Content", "Text"):
        return True
    template = first.args[0] if first.args else None
    constant = isinstance(template, ast.Constant) or (
        isinstance(template, ast.Name) and template.id.isupper()
    )
    return _name(first.func) == "from_markup" and constant


def markup_widgets() -> list[str]:
    """``Static`` / ``Label`` widgets of the app that would read data as markup."""
    found = []
    for path in sorted((ROOT / "weaver_tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if (
                isinstance(node, ast.Call)
                and _name(node.func) in WIDGETS
                and not _plain(node)
                and not _constant_text(node)
                and not _never_parsed(node)
            ):
                found.append(where)
            if isinstance(node, ast.ClassDef) and any(_name(b) in WIDGETS for b in node.bases):
                inits = [
                    call
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call) and _name(call.func) == "__init__"
                ]
                if not any(_plain(call) for call in inits):
                    found.append(f"{where} class {node.name}")
    return found


def test_no_widget_reads_data_as_markup() -> None:
    assert markup_widgets() == []


def _shown_plain(widget: Any) -> tuple[str, list[str]]:
    content = widget.render()
    spans = [str(span.style) for span in getattr(content, "spans", ())]
    return str(getattr(content, "plain", content)), spans


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=markupish)
async def test_markup_in_a_notification_or_a_question_shows_as_written(
    services: Services, text: str
) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        pilot.app.notify(f"Could not open {text}", title="Title")
        await settle(pilot)
        *_, notification = pilot.app._notifications  # what the toast draws
        assert notification.message == printable(f"Could not open {text}")
        assert notification.markup is False  # drawn as written (``Toast.render``)
        pilot.app.push_screen(ConfirmScreen(f"Delete the conversation '{text}'?"))
        await settle(pilot)
        question = pilot.app.screen.query_one("#confirm-question", Label)
        shown, spans = _shown_plain(question)
        assert shown == printable(f"Delete the conversation '{text}'?")
        assert spans == []
