"""Settings tests run in an empty folder with their own config and data folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

_OUTSIDE_VARIABLES = (
    "AGENT_LOG_REDACT_CONTENT",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "MOONSHOT_API_KEY",
    "DEEPSEEK_API_KEY",
    "DASHSCOPE_API_KEY",
)


@pytest.fixture(autouse=True)
def isolated_settings_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """cwd (where ``.env`` is read) is ``tmp_path/work``; platformdirs point into tmp_path."""
    for name in list(os.environ):
        if name.startswith("WEAVER_") or name in _OUTSIDE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config-home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    """The default config file location under the isolated config home (not created)."""
    return tmp_path / "config-home" / "weaver-tui" / "config.yaml"
