"""The benchmarks' children read the bytecode that is already compiled.

A child started with a private bytecode folder recompiles every package it imports (seconds
of CPU in each benchmark's first child); only a shell that forbids writing bytecode gets one,
shared by the run's children.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks._app_harness import child_env

WHERE_TEXTUAL_IS_CACHED = (
    "import importlib.util; "
    "print(importlib.util.cache_from_source(importlib.util.find_spec('textual').origin))"
)
"""Where the child would read Textual's compiled bytecode (found, not imported)."""


def cached_file_of_textual(env: dict[str, str]) -> Path:
    """Where a child started with ``env`` looks for Textual's compiled bytecode."""
    done = subprocess.run(
        [sys.executable, "-c", WHERE_TEXTUAL_IS_CACHED],
        env=env, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return Path(done.stdout.strip())


def test_a_child_reads_the_installed_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    env = child_env(tmp_path / "data", "http://127.0.0.1:9/v1")
    assert "PYTHONPYCACHEPREFIX" not in env
    assert cached_file_of_textual(env).is_file()  # compiled when Textual was installed


def test_a_shell_that_forbids_bytecode_gets_one_folder_for_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    first = child_env(tmp_path / "one", "http://127.0.0.1:9/v1")
    second = child_env(tmp_path / "two", "http://127.0.0.1:9/v1")
    assert "PYTHONDONTWRITEBYTECODE" not in first  # the children do write bytecode
    folder = Path(first["PYTHONPYCACHEPREFIX"])
    assert folder.is_dir()
    assert second["PYTHONPYCACHEPREFIX"] == str(folder)
    assert cached_file_of_textual(first).is_relative_to(folder)
