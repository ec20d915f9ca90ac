"""Where settings come from and in which order: arguments > env > env file > YAML > defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agents.providers import ProviderConfig, resolve_provider
from weaver_tui.core.settings.config import Settings, default_config_file, load_settings

KEY = "sk-settings-SECRET-0987654321"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_with_nothing_configured(tmp_path: Path, config_file: Path) -> None:
    settings = load_settings()

    assert settings.provider.name == "auto"
    assert settings.provider.model == ""
    assert settings.provider.api_key is None
    assert settings.turns.context_messages == 20
    assert settings.turns.max_tool_rounds == 5
    assert settings.ui.theme == "weaver-dark"
    assert settings.ui.default_profile == "ide-helper"
    assert settings.logging.redact_content is False
    assert settings.logging.level == "INFO"
    assert settings.storage.data_dir == tmp_path / "data-home" / "weaver-tui"
    assert settings.config_file == config_file == default_config_file()


def test_every_setting_has_a_docstring() -> None:
    source = Path(sys.modules[Settings.__module__].__file__ or "").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        block = source.split(f"\n    {name}: ", 1)[1].split("\n", 2)
        assert block[1].strip().startswith('"""'), f"{name} has no docstring"


@pytest.mark.parametrize(
    ("layers", "expected"),
    [
        ({"init", "env", "dotenv", "yaml"}, "from-init"),
        ({"env", "dotenv", "yaml"}, "from-env"),
        ({"dotenv", "yaml"}, "from-dotenv"),
        ({"yaml"}, "from-yaml"),
        (set(), ""),
    ],
)
def test_precedence_init_env_dotenv_yaml_default(
    layers: set[str],
    expected: str,
    config_file: Path,
    isolated_settings_env: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if "yaml" in layers:
        write(config_file, "model: from-yaml\ntheme: yaml-theme\n")
    if "dotenv" in layers:
        write(isolated_settings_env / ".env", "WEAVER_MODEL=from-dotenv\n")
    if "env" in layers:
        monkeypatch.setenv("WEAVER_MODEL", "from-env")
    overrides: dict[str, Any] = {"model": "from-init"} if "init" in layers else {}
    env_file = isolated_settings_env / ".env" if "dotenv" in layers else None

    settings = load_settings(env_file=env_file, **overrides)

    assert settings.provider.model == expected
    assert settings.ui.theme == ("yaml-theme" if "yaml" in layers else "weaver-dark")


def test_overrides_that_are_none_do_not_hide_lower_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_PROVIDER", "ollama")

    assert load_settings(provider=None, model=None).provider.name == "ollama"


def test_weaver_config_names_another_file(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, "theme: default-file\n")
    other = write(tmp_path / "elsewhere" / "mine.yaml", "theme: other-file\n")
    monkeypatch.setenv("WEAVER_CONFIG", str(other))

    settings = load_settings()

    assert settings.ui.theme == "other-file"
    assert settings.config_file == other


def test_config_file_argument_wins_over_weaver_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEAVER_CONFIG", str(write(tmp_path / "a.yaml", "theme: a\n")))

    assert load_settings(config_file=write(tmp_path / "b.yaml", "theme: b\n")).ui.theme == "b"


def test_weaver_data_dir_overrides_the_platform_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "my-data"))

    assert load_settings().storage.data_dir == tmp_path / "my-data"


def test_data_dir_expands_the_home_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_DATA_DIR", "~/weaver-data")

    assert load_settings().storage.data_dir == Path.home() / "weaver-data"


@pytest.mark.parametrize(
    ("agent", "weaver", "expected"),
    [("true", None, True), ("1", None, True), ("false", None, False), ("true", "false", False)],
)
def test_agent_log_redact_content_is_honoured(
    agent: str, weaver: str | None, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_LOG_REDACT_CONTENT", agent)
    if weaver is not None:
        monkeypatch.setenv("WEAVER_LOG_REDACT_CONTENT", weaver)

    assert load_settings().logging.redact_content is expected


def test_agent_log_redact_content_beats_the_yaml_file(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, "log_redact_content: false\n")
    monkeypatch.setenv("AGENT_LOG_REDACT_CONTENT", "true")

    assert load_settings().logging.redact_content is True


def test_yaml_keys_and_values_are_read_with_their_types(config_file: Path) -> None:
    write(
        config_file,
        "provider: DeepSeek\ntemperature: 0.2\nhttp_timeout: 12\ncontext_messages: 8\n"
        "max_tool_rounds: 2\nlog_level: debug\nlog_redact_content: yes\n",
    )

    settings = load_settings()

    assert settings.provider.name == "deepseek"
    assert settings.provider.temperature == 0.2
    assert settings.provider.http_timeout == 12.0
    assert (settings.turns.context_messages, settings.turns.max_tool_rounds) == (8, 2)
    assert settings.logging.level == "DEBUG"
    assert settings.logging.redact_content is True


def test_the_api_key_is_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_API_KEY", KEY)

    settings = load_settings()

    assert settings.provider.api_key is not None
    assert settings.provider.api_key.get_secret_value() == KEY
    assert KEY not in repr(settings)
    assert KEY not in str(settings)
    assert KEY not in repr(settings.provider_config())
    assert KEY not in settings.model_dump_json()


def test_provider_config_carries_the_provider_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_PROVIDER", "openai-compatible")
    monkeypatch.setenv("WEAVER_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("WEAVER_API_KEY", KEY)
    monkeypatch.setenv("WEAVER_HTTP_TIMEOUT", "7.5")

    config = load_settings(model="local-llm", temperature=0.4).provider_config()

    assert isinstance(config, ProviderConfig)
    assert (config.provider, config.model, config.base_url) == (
        "openai-compatible",
        "local-llm",
        "http://127.0.0.1:8000/v1",
    )
    assert (config.temperature, config.timeout) == (0.4, 7.5)
    assert config.api_key is not None
    assert config.api_key.get_secret_value() == KEY


def test_provider_keys_in_the_dotenv_file_are_found(isolated_settings_env: Path) -> None:
    dotenv = write(
        isolated_settings_env / ".env", f"MOONSHOT_API_KEY={KEY}\nWEAVER_THEME=from-dotenv\n"
    )

    settings = load_settings(env_file=dotenv)
    resolved = resolve_provider(settings.provider_config())

    assert settings.ui.theme == "from-dotenv"
    assert resolved.provider == "moonshot"
    assert resolved.api_key is not None
    assert resolved.api_key.get_secret_value() == KEY


def test_no_key_anywhere_means_the_offline_model() -> None:
    assert resolve_provider(load_settings().provider_config()).provider == "offline"


def test_settings_import_neither_textual_nor_the_network_stack() -> None:
    code = (
        "import sys, weaver_tui.core.settings.config; "
        "loaded = [m for m in ('textual', 'openai', 'langchain_openai') if m in sys.modules]; "
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])
