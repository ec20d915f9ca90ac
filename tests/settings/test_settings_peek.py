"""The first frame's peek at the settings gives what pydantic-settings gives, from every source.

``peek_settings`` reads theme, data folder and default profile without pydantic so the app can
paint before validating; these tests pin it to ``load_settings`` case by case: if they ever
disagree, the app would paint one theme and then switch to another.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.errors import ConfigError
from weaver_tui.core.settings.config import load_settings
from weaver_tui.core.settings.early import peek_settings
from weaver_tui.core.settings.pending import PendingSettings

Setup = Callable[[Path, pytest.MonkeyPatch, Path], None]
REPO = Path(__file__).resolve().parents[2]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _nothing(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    return None


def _yaml(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    write(config, "theme: weaver-light\ndefault_profile: mediator\ndata_dir: ~/weaver-data\n")


def _env_over_yaml(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    _yaml(work, env, config)
    env.setenv("WEAVER_THEME", "textual-light")
    env.setenv("weaver_default_profile", "paper-pilot")  # names match in any case


def _empty_env_is_ignored(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    _yaml(work, env, config)
    env.setenv("WEAVER_THEME", "")
    env.setenv("WEAVER_DATA_DIR", "")


def _dotenv_between_env_and_yaml(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    _yaml(work, env, config)
    dotenv = write(
        work / "mine.env", "WEAVER_THEME=nord\nWEAVER_DATA_DIR=/srv/from-dotenv\nWEAVER_MODEL=\n"
    )
    env.setenv("WEAVER_ENV_FILE", str(dotenv))
    env.setenv("WEAVER_DATA_DIR", str(work / "from-env"))


def _yaml_upper_case_keys(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    write(config, "THEME: gruvbox\nDefault_Profile: atom-developer\n")


def _named_config_file(work: Path, env: pytest.MonkeyPatch, config: Path) -> None:
    named = write(work / "elsewhere.yaml", "theme: dracula\n")
    env.setenv("WEAVER_CONFIG", str(named))


CASES: dict[str, Setup] = {
    "defaults": _nothing,
    "yaml": _yaml,
    "env over yaml": _env_over_yaml,
    "empty env ignored": _empty_env_is_ignored,
    "dotenv between": _dotenv_between_env_and_yaml,
    "yaml key case": _yaml_upper_case_keys,
    "WEAVER_CONFIG": _named_config_file,
}


@pytest.mark.parametrize("case", CASES)
def test_peek_agrees_with_pydantic_settings(
    case: str,
    isolated_settings_env: Path,
    config_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    CASES[case](isolated_settings_env, monkeypatch, config_file)

    early = peek_settings()

    assert early == load_settings().early()
    assert early.data_dir.is_absolute()


def test_command_line_options_win_in_both(config_file: Path) -> None:
    write(config_file, "theme: weaver-light\n")
    early = peek_settings(env_file=None, theme="textual-dark", provider="offline", model=None)
    settings = load_settings(env_file=None, theme="textual-dark", provider="offline", model=None)
    assert early == settings.early()
    assert early.theme == "textual-dark"


def test_an_unreadable_config_file_stops_the_peek_with_one_sentence(config_file: Path) -> None:
    write(config_file, "theme: [unclosed\n")
    with pytest.raises(ConfigError) as caught:
        peek_settings()
    assert str(config_file) in caught.value.user_message
    assert "\n" not in caught.value.user_message


def test_a_bad_value_passes_the_peek_and_fails_validation(config_file: Path) -> None:
    """The peek converts nothing: validating (after the first paint) finds the bad value."""
    write(config_file, "theme: weaver-light\ncontext_messages: lots\nno_such_setting: 1\n")
    pending = PendingSettings.peek(env_file=None, provider="offline")
    assert pending.early.theme == "weaver-light"
    with pytest.raises(ConfigError) as caught:
        pending.validate()
    assert str(config_file) in caught.value.user_message


def test_pending_settings_validate_with_the_same_arguments(config_file: Path) -> None:
    write(config_file, "theme: weaver-light\n")
    pending = PendingSettings.peek(env_file=None, provider="offline", model="m1")
    settings = pending.validate()
    assert (settings.provider.name, settings.provider.model, settings.ui.theme) == (
        "offline",
        "m1",
        "weaver-light",
    )
    assert settings.config_file == config_file


def test_the_peek_imports_no_pydantic() -> None:
    code = (
        "import sys\n"
        "from weaver_tui.core.settings.early import peek_settings\n"
        "peek_settings(env_file=None)\n"
        "print(sorted(m for m in ('pydantic', 'pydantic_settings', 'yaml') if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
