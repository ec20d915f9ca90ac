"""Real project folders for the ide-helper tools: a plain folder and a git work tree."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

APP_PY = '''"""A tiny app."""


def greet(name: str) -> str:
    return f"Hello, {name}!"


def farewell(name: str) -> str:
    return f"Goodbye, {name}!"
'''


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def populate(root: Path) -> Path:
    """Source files plus the clutter every tool must skip."""
    write(root, "src/app.py", APP_PY)
    write(
        root, "src/util/strings.py", "def shout(text):\n    return text.upper()  # greet loudly\n"
    )
    write(root, "README.md", "# Demo\n\nSay hello with greet().\n")
    write(root, "docs/guide.txt", "Call greet to say hello.\n")
    write(root, "logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    write(root, "build/out.js", "function greet() {}\n")
    write(root, "debug.log", "greet called\n")
    write(root, "node_modules/lib/index.js", "module.exports = greet;\n")
    write(root, ".venv/lib/site.py", "greet = 1\n")
    write(root, "env/pyvenv.cfg", "home = /usr/bin\n")
    write(root, "env/lib/thing.py", "greet = 2\n")
    write(root, "src/__pycache__/app.cpython-311.pyc", b"\x00\x01greet")
    write(root, ".gitignore", "build/\n*.log\n")
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A plain folder (no git): ``.gitignore`` is applied by the walk."""
    return populate(tmp_path / "project")


@pytest.fixture
def git_project(tmp_path: Path) -> Path:
    """The same files in a git work tree with one commit (git applies ``.gitignore``)."""
    root = populate(tmp_path / "repo")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True, env=env)
    write(root, "src/untracked.py", "def greet_later():\n    pass\n")
    return root
