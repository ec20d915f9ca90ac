"""Run the real ``weaver-tui`` command in a subprocess, isolated in a temporary data folder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLI_TIMEOUT_S = 120


def isolated_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The parent's environment without any provider or weaver setting, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("WEAVER_", "OPENAI_", "MOONSHOT_", "DEEPSEEK_", "DASHSCOPE_"))
        and k != "AGENT_LOG_REDACT_CONTENT"
    }
    # The hook folder's sitecustomize registers the test-only ``researcher`` profile.
    hook = REPO / "tests" / "support" / "profile_hook"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(hook), str(REPO), env.get("PYTHONPATH")]))
    env["WEAVER_DATA_DIR"] = str(tmp_path / "data")
    env["WEAVER_CONFIG"] = str(tmp_path / "config.yaml")
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


@pytest.fixture
def weaver(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``weaver(*args, env_extra={...})`` runs ``python -m weaver_tui *args`` in ``tmp_path``."""

    def run(
        *args: str, env: dict[str, str] | None = None, code: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        command = (
            [sys.executable, "-c", code, *args]
            if code
            else [sys.executable, "-m", "weaver_tui", *args]
        )
        return subprocess.run(
            command,
            cwd=tmp_path,
            env=isolated_env(tmp_path, **(env or {})),
            capture_output=True,
            text=True,
            timeout=CLI_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )

    return run
