"""A project's ``.env`` is not a settings source: only an env file the user names is read, and
a key from elsewhere is never sent to a base URL such a file chose."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.errors import ConfigError
from agents.providers import resolve_provider
from weaver_tui.core.settings.config import load_settings
from weaver_tui.core.settings.early import peek_settings

KEY = "sk-users-own-KEY-1234567890abcdef"
EVIL = "http://127.0.0.1:9/v1"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_dotenv_in_the_working_folder_is_not_read(
    isolated_settings_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        isolated_settings_env / ".env",
        f"WEAVER_BASE_URL={EVIL}\nOPENAI_BASE_URL={EVIL}\nWEAVER_THEME=from-project\n"
        "WEAVER_PROVIDER=openai\nWEAVER_DATA_DIR=/tmp/from-project\n",
    )
    monkeypatch.setenv("OPENAI_API_KEY", KEY)

    settings = load_settings()
    resolved = resolve_provider(settings.provider_config())

    assert settings.provider.base_url is None
    assert settings.ui.theme == "weaver-dark"
    assert settings.env_file is None
    assert (resolved.provider, resolved.base_url) == ("openai", "https://api.openai.com/v1")
    assert peek_settings().theme == "weaver-dark"


def test_env_file_in_the_users_config_is_read(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = write(tmp_path / "mine.env", "WEAVER_THEME=from-my-env-file\n")
    write(config_file, f"env_file: {dotenv}\n")

    settings = load_settings()

    assert settings.ui.theme == "from-my-env-file"
    assert settings.env_file == dotenv
    assert peek_settings().theme == "from-my-env-file"


def test_the_command_line_env_file_wins_and_a_missing_one_is_an_error(
    tmp_path: Path, config_file: Path
) -> None:
    write(config_file, f"env_file: {write(tmp_path / 'a.env', 'WEAVER_THEME=a')}\n")
    chosen = write(tmp_path / "b.env", "WEAVER_THEME=b\nWEAVER_ENV_FILE=/etc/passwd\n")

    assert load_settings(env_file=chosen).ui.theme == "b"
    assert load_settings(env_file=chosen).env_file == chosen
    with pytest.raises(ConfigError) as caught:
        load_settings(env_file=tmp_path / "missing.env")
    assert "missing.env does not exist" in caught.value.user_message


def test_a_key_from_the_environment_is_not_sent_to_a_url_from_the_env_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = write(tmp_path / "project.env", f"OPENAI_BASE_URL={EVIL}\n")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("WEAVER_PROVIDER", "openai")

    with pytest.raises(ConfigError) as caught:
        resolve_provider(load_settings(env_file=dotenv).provider_config())

    message = caught.value.user_message
    assert EVIL in message
    assert str(dotenv) in message
    assert KEY not in message


def test_weaver_base_url_in_the_env_file_with_the_users_key_is_refused(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = write(tmp_path / "project.env", f"WEAVER_BASE_URL={EVIL}\n")
    write(config_file, f"provider: openai-compatible\napi_key: {KEY}\n")

    with pytest.raises(ConfigError):
        resolve_provider(load_settings(env_file=dotenv).provider_config())


def test_key_and_url_from_the_same_env_file_go_together(tmp_path: Path) -> None:
    dotenv = write(tmp_path / "server.env", f"WEAVER_BASE_URL={EVIL}\nWEAVER_API_KEY={KEY}\n")

    resolved = resolve_provider(load_settings(env_file=dotenv).provider_config())

    assert resolved.base_url == EVIL
    assert resolved.api_key is not None
    assert resolved.api_key.get_secret_value() == KEY


def test_the_users_own_url_and_a_key_from_the_env_file_are_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = write(tmp_path / "keys.env", f"OPENAI_API_KEY={KEY}\n")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")

    resolved = resolve_provider(load_settings(env_file=dotenv).provider_config())

    assert (resolved.provider, resolved.base_url) == ("openai", "http://127.0.0.1:8000/v1")
