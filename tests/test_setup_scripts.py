"""The set-up script behind scripts/run and scripts/test: quiet when pip is, loud when it fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _fake_checkout(tmp_path: Path, pip_exit: int) -> Path:
    """A checkout whose .venv python is a stand-in that talks like pip and exits ``pip_exit``."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "_venv.sh", tmp_path / "scripts" / "_venv.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        "#!/bin/sh\n"
        "echo 'BuildBackendWarning: Editable installation.' >&2\n"
        "echo \"WARNING: Location 'file:///nowhere' is ignored\" >&2\n"
        f"exit {pip_exit}\n"
    )
    python.chmod(0o755)
    return tmp_path


def _source(checkout: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", 'source scripts/_venv.sh test ""'],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHON": "false"},
    )


def test_a_first_install_says_one_line_and_keeps_pip_warnings_in_the_log(tmp_path: Path) -> None:
    checkout = _fake_checkout(tmp_path, pip_exit=0)
    result = _source(checkout)

    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        "weaver-tui: installing dependencies into .venv (first run only) ..."
    ]
    assert "BuildBackendWarning" in (checkout / ".venv" / "install.log").read_text()
    assert _source(checkout).stderr == ""  # installed: nothing to say


def test_a_failed_install_shows_what_pip_said(tmp_path: Path) -> None:
    result = _source(_fake_checkout(tmp_path, pip_exit=1))

    assert result.returncode == 1
    assert "BuildBackendWarning" in result.stderr
    assert "installing the dependencies failed" in result.stderr
