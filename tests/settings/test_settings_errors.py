"""A bad setting stops the app with one line naming the key and where it came from."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

from agents.errors import ConfigError
from weaver_tui.core.settings.config import load_settings, save_setting


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def config_error(**kwargs: object) -> str:
    with pytest.raises(ConfigError) as caught:
        load_settings(**kwargs)  # type: ignore[arg-type]
    message = caught.value.user_message
    assert "\n" not in message
    assert "Traceback" not in message
    return message


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("temperature: hot", "temperature"),
        ("temperature: 3.5", "temperature"),
        ("http_timeout: -1", "http_timeout"),
        ("context_messages: many", "context_messages"),
        ("max_tool_rounds: -2", "max_tool_rounds"),
        ("provider: skynet", "provider"),
        ("log_level: loud", "log_level"),
        ("log_redact_content: perhaps", "log_redact_content"),
    ],
)
def test_invalid_yaml_value_names_the_key_and_the_file(
    line: str, key: str, config_file: Path
) -> None:
    write(config_file, f"theme: fine\n{line}\n")

    message = config_error()

    assert message.startswith(f"Invalid value for {key} in the config file {config_file}")


def test_invalid_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_CONTEXT_MESSAGES", "lots")

    message = config_error()

    assert "context_messages" in message
    assert "WEAVER_CONTEXT_MESSAGES" in message
    assert "'lots'" in message


def test_invalid_agent_redact_variable_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_LOG_REDACT_CONTENT", "sometimes")

    assert "AGENT_LOG_REDACT_CONTENT" in config_error()


def test_invalid_dotenv_value_names_the_dotenv_file(isolated_settings_env: Path) -> None:
    dotenv = write(isolated_settings_env / ".env", "WEAVER_HTTP_TIMEOUT=soon\n")

    message = config_error(env_file=dotenv)

    assert "http_timeout" in message
    assert str(dotenv) in message


def test_invalid_option_names_the_command_line() -> None:
    assert "temperature in the command-line options" in config_error(temperature="warm")


def test_an_invalid_api_key_value_is_not_echoed(config_file: Path) -> None:
    write(config_file, "api_key: [sk-list-SECRET-11111]\n")

    message = config_error()

    assert "api_key" in message
    assert "sk-list-SECRET-11111" not in message


def test_yaml_that_does_not_parse_names_the_file_and_line(config_file: Path) -> None:
    write(config_file, "theme: ok\nmodel: [unclosed\n")

    message = config_error()

    assert str(config_file) in message
    assert "not valid YAML" in message
    assert "line" in message


def test_yaml_that_is_not_a_mapping_is_refused(config_file: Path) -> None:
    write(config_file, "- just\n- a list\n")

    assert "must hold 'setting: value' lines" in config_error()


def test_unknown_yaml_key_is_refused_by_name(config_file: Path) -> None:
    write(config_file, "temprature: 0.5\n")

    message = config_error()

    assert "'temprature'" in message
    assert str(config_file) in message


def test_config_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder.yaml"
    folder.mkdir()

    assert "is a folder" in config_error(config_file=folder)


def test_config_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    binary = write(tmp_path / "binary.yaml", b"\xff\xfe\x00theme: x\x00\x9f")

    message = config_error(config_file=binary)

    assert str(binary) in message


def test_empty_config_file_means_defaults(config_file: Path) -> None:
    write(config_file, "# nothing yet\n")

    assert load_settings().ui.theme == "weaver-dark"


def test_save_setting_creates_the_file_and_keeps_other_keys(config_file: Path) -> None:
    saved = save_setting("theme", "weaver-light")
    save_setting("model", "kimi-k2-turbo-preview")
    save_setting("theme", "weaver-dark")

    assert saved == config_file
    assert yaml.safe_load(config_file.read_text(encoding="utf-8")) == {
        "ui": {"theme": "weaver-dark"},
        "provider": {"model": "kimi-k2-turbo-preview"},
    }
    settings = load_settings()
    assert (settings.ui.theme, settings.provider.model) == ("weaver-dark", "kimi-k2-turbo-preview")


def test_save_setting_writes_to_the_file_weaver_config_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "custom" / "weaver.yaml"
    monkeypatch.setenv("WEAVER_CONFIG", str(target))

    save_setting("provider", "moonshot")

    assert load_settings().provider.name == "moonshot"
    assert target.is_file()


def test_save_setting_refuses_an_invalid_value_and_leaves_the_file(config_file: Path) -> None:
    write(config_file, "theme: kept\n")

    with pytest.raises(ConfigError) as caught:
        save_setting("temperature", "boiling")

    assert "temperature" in caught.value.user_message
    assert config_file.read_text(encoding="utf-8") == "theme: kept\n"


def test_save_setting_refuses_an_unknown_key() -> None:
    with pytest.raises(ConfigError) as caught:
        save_setting("colour_scheme", "dark")

    assert "colour_scheme" in caught.value.user_message


def test_save_setting_stores_paths_as_text(tmp_path: Path, config_file: Path) -> None:
    save_setting("data_dir", tmp_path / "kept-data")

    assert load_settings().storage.data_dir == tmp_path / "kept-data"
