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


def test_a_uv_on_path_installs_the_project_and_pip_without_fetching_another(
    tmp_path: Path,
) -> None:
    """A uv the user already has does the install: no pip runs to fetch one (the stand-in
    python fails every pip command), and the virtualenv, made without pip, gets pip from uv for
    the hints that name .venv/bin/pip."""
    (tmp_path / "checkout").mkdir()
    checkout = _fake_checkout(tmp_path / "checkout", pip_exit=1)
    calls = tmp_path / "uv-calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    uv = bin_dir / "uv"
    uv.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    uv.chmod(0o755)
    result = subprocess.run(
        ["bash", "-c", 'source scripts/_venv.sh test "[test]"'],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHON": "false", "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
    )

    assert result.returncode == 0, result.stderr
    installs = calls.read_text().splitlines()
    assert any("--compile-bytecode" in call and f"-e {checkout}[test]" in call for call in installs)
    assert any(call.split()[-1] == "pip" for call in installs)
