"""Writing a message in the user's own editor (``$VISUAL``, else ``$EDITOR``).

The app is suspended (``App.suspend``) so the editor has the terminal; the text goes through a
private temporary file that is removed afterwards. The editor comes from the user's own
environment, and it is run without a shell. What comes back is held to the message size limit.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from textual.app import App, SuspendNotSupported


class EditorError(Exception):
    """The editor could not be used; the sentence says why and what to do."""


def editor_command(environ: dict[str, str] | None = None) -> list[str]:
    """The user's editor as an argument list, from ``$VISUAL`` then ``$EDITOR``."""
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
                return command
    raise EditorError(
        "Set $VISUAL or $EDITOR to the editor you want (for example: export EDITOR=vim), "
        "then press Ctrl+E again."
    )


def edit_in_editor(app: App[object], text: str, max_bytes: int) -> str:
    """Open ``text`` in the user's editor with the app suspended; return what they saved."""
    command = editor_command()
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
        return path.read_text(encoding="utf-8", errors="replace").rstrip("\n")
    finally:
        path.unlink(missing_ok=True)
