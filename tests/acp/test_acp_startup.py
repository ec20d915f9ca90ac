"""``weaver-tui acp`` starts light and says what to do when no editor is on its pipes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import CLI_TIMEOUT_S, isolated_env

CHECK_IMPORTS = (
    "import sys\n"
    "import weaver_tui.core.acp_agent.agent, weaver_tui.core.acp_agent.stdio, weaver_tui.core.cli\n"
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


MISRUN_IMPORTS = (
    "import sys\n"
    "from weaver_tui.launch import main\n"
    "code = main(['--provider', 'offline', 'acp'])\n"
    "print(code, 'acp' in sys.modules, 'agents.profile' in sys.modules, file=sys.stderr)\n"
)


def test_run_with_a_file_for_stdout_it_says_to_start_it_from_an_editor_before_the_sdk_loads(
    tmp_path: Path,
) -> None:
    """``weaver-tui acp`` run by hand (stdout a file, not an editor's pipe) says so in one
    line, writes nothing to the file, and exits 2 before the ACP SDK (a second of CPU) or
    any profile is imported."""
    out = tmp_path / "out.txt"
    with out.open("wb") as stdout:
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
    assert said.startswith("weaver-tui: ")
    assert "editor" in said
    assert imported == "2 False False"  # the exit code; no SDK, no profile imported
    assert out.read_bytes() == b""
