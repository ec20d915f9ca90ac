"""Writing a message in the user's own editor (``$VISUAL``, else ``$EDITOR``, else one found
on ``PATH``: nano, vim or vi).

The app is suspended (``App.suspend``) so the editor has the terminal; the text goes through a
private temporary file that is removed afterwards. The editor comes from the user's own
environment, and it is run without a shell. What comes back is held to the message size limit.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from textual.app import App, SuspendNotSupported


class EditorError(Exception):
    """The editor could not be used; the sentence says why and what to do."""


FALLBACK_EDITORS = ("nano", "vim", "vi")
"""Editors looked for on ``PATH``, in this order, when neither ``$VISUAL`` nor ``$EDITOR`` is
set: the first is the easiest to leave for someone who never chose one."""


@dataclass(frozen=True, slots=True)
class Editor:
    """The command to run, and whether it was found on ``PATH`` rather than chosen."""

    command: list[str]
    found_on_path: bool = False


@dataclass(frozen=True, slots=True)
class EditedText:
    """What the user saved, and the editor it was written in."""

    text: str
    editor: Editor


def editor_command(environ: Mapping[str, str] | None = None) -> Editor:
    """The user's editor, from ``$VISUAL`` then ``$EDITOR``, else the first of
    :data:`FALLBACK_EDITORS` on ``PATH``."""
    env = os.environ if environ is None else environ
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            try:
                command = shlex.split(value)
            except ValueError as exc:
                raise EditorError(
                    f"${name} ({value!r}) cannot be read as a command: {exc}."
                ) from exc
            if command:
                return Editor(command)
    for name in FALLBACK_EDITORS:
        found = shutil.which(name, path=env.get("PATH", os.defpath))
        if found:
            return Editor([found], found_on_path=True)
    raise EditorError(
        f"No editor found: neither $VISUAL nor $EDITOR is set and none of "
        f"{', '.join(FALLBACK_EDITORS)} is installed; set one (for example: export "
        "EDITOR=vim), then press Ctrl+E again."
    )


def edit_in_editor(app: App[object], text: str, max_bytes: int) -> EditedText:
    """Open ``text`` in the user's editor with the app suspended; return what they saved."""
    editor = editor_command()
    command = editor.command
    fd, name = tempfile.mkstemp(prefix="weaver-message-", suffix=".md")
    path = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        try:
            with app.suspend():
                completed = subprocess.run([*command, str(path)], check=False)
        except SuspendNotSupported as exc:
            raise EditorError(
                "This session cannot hand the terminal to an editor (a browser session?)."
            ) from exc
        except OSError as exc:
            raise EditorError(
                f"The editor {command[0]!r} could not be started ({exc.strerror or exc}); "
                "check $VISUAL or $EDITOR."
            ) from exc
        if completed.returncode != 0:
            raise EditorError(
                f"The editor exited with status {completed.returncode}; the composer keeps "
                "what it had."
            )
        if path.stat().st_size > max_bytes:
            raise EditorError(
                f"The saved message is over {max_bytes / 1e6:.1f} MB (max_message_bytes); "
                "the composer keeps what it had."
            )
        saved = path.read_text(encoding="utf-8", errors="replace").rstrip("\n")
        return EditedText(saved, editor)
    finally:
        path.unlink(missing_ok=True)
