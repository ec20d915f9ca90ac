"""The shape of the code base stays as the seam left it: no import circles anywhere in the
packages (imports under ``TYPE_CHECKING`` and inside functions count), and the app never
tests a profile's name. ``scripts/house.py`` measures both."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _house() -> ModuleType:
    spec = importlib.util.spec_from_file_location("house", ROOT / "scripts" / "house.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_module_imports_back_into_a_module_that_imports_it() -> None:
    house = _house()
    edges, _ = house.graph(ROOT)
    assert house.circles(edges) == []


def test_the_circle_finder_sees_type_checking_and_function_level_imports(tmp_path: Path) -> None:
    package = tmp_path / "agents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import agents.b\n"
    )
    (package / "b.py").write_text("def f():\n    from agents.a import x\n")
    house = _house()
    edges, _ = house.graph(tmp_path)
    assert house.circles(edges) == [["agents.a", "agents.b"]]


def test_the_app_names_no_profile() -> None:
    assert _house().profile_literals(ROOT) == 0


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (under ``TYPE_CHECKING`` and inside functions too)."""
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_chat_screens_pieces_see_it_only_as_a_chat_surface() -> None:
    """The pieces the chat screen owns take it as a ``ChatSurface`` (its panes and status);
    none of them imports Textual's ``Screen`` to reach into the screen as a whole."""
    chat = ROOT / "weaver_tui" / "screens" / "chat"
    pieces = sorted(
        name.rsplit(".", 1)[1]
        for name in _imported_modules(chat / "screen.py")
        if name.startswith("weaver_tui.screens.chat.")
    )
    assert {"branching", "sender", "path_presenter", "turn_runner"} <= set(pieces)
    reaching = [
        piece for piece in pieces if "textual.screen" in _imported_modules(chat / f"{piece}.py")
    ]
    assert reaching == []


def _user_record_writers(root: Path) -> list[str]:
    """Modules that call ``add_message(..., "user", ...)``: writers of user records."""
    import ast

    writers: list[str] = []
    for package in ("agents", "weaver_tui"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "add_message"
                    and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)
                    and node.args[1].value == "user"
                ):
                    writers.append(str(path.relative_to(root)))
    return writers


def test_one_writer_of_user_messages() -> None:
    """Every front end sends through the agents' one writer of user records (which creates and
    titles the conversation the same way for all of them); none writes one itself."""
    assert _user_record_writers(ROOT) == ["agents/runtime/user_message.py"]


def test_the_screens_package_holds_screens_and_the_chat_screen_its_pieces() -> None:
    """``weaver_tui/screens/`` keeps only modules that define a screen; the chat screen's
    helpers live beside it in ``screens/chat/``."""
    import ast

    screens = ROOT / "weaver_tui" / "screens"
    for path in sorted(screens.glob("*.py")):
        if path.name == "__init__.py":
            continue
        bases = {
            ast.unparse(base).split("[")[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef)
            for base in node.bases
        }
        assert bases & {"Screen", "ModalScreen"}, f"{path.name} defines no screen"
