"""``weaver-tui acp`` starts light and says what to do when no editor is on its pipes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import CLI_TIMEOUT_S, isolated_env

CHECK_IMPORTS = (
    "import sys\n"
    "import weaver_tui.acp_agent.agent, weaver_tui.acp_agent.stdio, weaver_tui.cli\n"
    "print(' '.join(m for m in ('textual', 'langgraph', 'langchain_core') if m in sys.modules))\n"
)


def test_the_agent_answers_initialize_before_importing_the_graph_libraries_or_textual(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK_IMPORTS],
        env=isolated_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_run_with_a_file_for_stdout_it_says_to_start_it_from_an_editor(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with out.open("wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-m", "weaver_tui", "--provider", "offline", "acp"],
            env=isolated_env(tmp_path),
            cwd=tmp_path,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=CLI_TIMEOUT_S,
            input="",
        )
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("weaver-tui: ")
    assert "editor" in line
    assert out.read_bytes() == b""


MISRUN_IMPORTS = (
    "import sys\n"
    "from weaver_tui.cli import main\n"
    "code = main(['--provider', 'offline', 'acp'])\n"
    "print(code, 'acp' in sys.modules, file=sys.stderr)\n"
)


def test_run_with_a_file_for_stdout_it_fails_before_importing_the_acp_sdk(tmp_path: Path) -> None:
    with (tmp_path / "out.txt").open("wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-c", MISRUN_IMPORTS],
            env=isolated_env(tmp_path),
            cwd=tmp_path,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=CLI_TIMEOUT_S,
            input="",
        )
    assert result.returncode == 0, result.stderr
    said, imported = result.stderr.splitlines()
    assert "editor" in said
    assert imported == "2 False"  # the exit code, and no SDK (a second of CPU) imported
