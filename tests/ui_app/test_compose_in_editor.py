"""Ctrl+E writes the message in the user's editor: the composer's text goes to $VISUAL (else
$EDITOR), what the editor saves comes back; a missing editor, a failing one, or one that
saves too much leaves the composer as it was, with a sentence. The editor here is a stub
script; the pty test runs it from the real command, with the terminal really handed over."""

from __future__ import annotations

import contextlib
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.conftest import isolated_env
from tests.ui_app.conftest import SIZE, chat, new_app, settle
from tests.ui_app.test_launch_typing_pty import BOUND_S, Terminal, _messages
from weaver_tui.core.services import Services


def stub_editor(folder: Path, body: str, status: int = 0) -> Path:
    """An executable that edits the file it is given (appends a line), leaves a mark that it
    ran (``ran`` beside it), then exits ``status``."""
    script = folder / "stub-editor"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "path = sys.argv[-1]\n"
        "text = open(path, encoding='utf-8').read()\n"
        f"open(path, 'w', encoding='utf-8').write(text + {body!r})\n"
        f"open({str(folder / 'ran')!r}, 'a').write('ran')\n"
        f"sys.exit({status})\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


async def test_the_editor_gets_the_draft_and_its_text_comes_back(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    editor = stub_editor(tmp_path, " and more from the editor\n")
    monkeypatch.setenv("EDITOR", f"{editor} --wait")  # arguments are kept, no shell involved
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        monkeypatch.setattr(pilot.app, "suspend", contextlib.nullcontext)  # headless: no tty
        screen = chat(pilot.app)
        screen.composer.load_text("a long prompt")
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert screen.composer.text == "a long prompt and more from the editor"


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({}, "No editor found"),
        ({"EDITOR": "/nonexistent/editor"}, "could not be started"),
        ({"VISUAL": "FAIL"}, "exited with status 3"),
    ],
)
async def test_without_a_working_editor_the_composer_keeps_its_text(
    services: Services,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    said: str,
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-editors-here"))
    for name, value in env.items():
        value = str(stub_editor(tmp_path, "lost", status=3)) if value == "FAIL" else value
        monkeypatch.setenv(name, value)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        monkeypatch.setattr(pilot.app, "suspend", contextlib.nullcontext)
        screen = chat(pilot.app)
        screen.composer.load_text("keep me")
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert screen.composer.text == "keep me"
        assert any(said in n.message for n in pilot.app._notifications)


def _type_until(terminal: Terminal, key: bytes, done: Callable[[], bool]) -> None:
    """Type ``key``, then again each second until ``done()`` (at most :data:`BOUND_S`)."""
    end = time.monotonic() + BOUND_S
    while not done():
        assert time.monotonic() < end, f"{key!r} never took effect"
        terminal.type(key, pause_s=1.0)


def test_the_real_command_hands_the_terminal_to_the_editor(tmp_path: Path) -> None:
    editor = stub_editor(tmp_path, " written in the editor")
    env = {**isolated_env(tmp_path), "TERM": "xterm-256color", "EDITOR": str(editor)}
    terminal = Terminal(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "--profile", "ide-helper"],
        tmp_path,
        env,
    )
    try:
        terminal.wait_for(b"Write a message")
        terminal.type(b"draft")
        end = time.monotonic() + BOUND_S
        while not (tmp_path / "ran").exists():  # Ctrl+E until the chat screen has taken over
            assert time.monotonic() < end, "the editor never ran"
            terminal.type(b"\x05", pause_s=2.0)
        terminal.wait_for(b"written in the editor")  # back in the composer
        # A Ctrl+E pressed again on a slow start runs the editor a second time; a key typed
        # while it runs meets the terminal in its cooked mode (Enter becomes a line feed,
        # Ctrl+Q is flow control), so Enter and Ctrl+Q are typed until they take effect.
        _type_until(terminal, b"\r", lambda: bool(_messages(tmp_path, "assistant")))
        _type_until(terminal, b"\x11", lambda: terminal.process.poll() is not None)
    finally:
        terminal.close()
    (sent,) = _messages(tmp_path, "user")  # (a Ctrl+E pressed again on a slow start edits twice)
    assert sent.startswith("draft written in the editor")


async def test_with_no_editor_set_one_found_on_path_is_used_and_named(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub_editor(tmp_path, " typed in vi").rename(bin_dir / "vi")
    monkeypatch.setenv("PATH", str(bin_dir))
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        monkeypatch.setattr(pilot.app, "suspend", contextlib.nullcontext)
        screen = chat(pilot.app)
        screen.composer.load_text("draft")
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert screen.composer.text == "draft typed in vi"
        assert any("vi, found on PATH" in n.message for n in pilot.app._notifications)
