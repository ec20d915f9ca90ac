"""Settings in sections: nested names in every source, the flat names of earlier versions still
read, and one order of precedence across both: arguments > env > env file > YAML > defaults."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]
from pydantic import BaseModel

from agents.errors import ConfigError
from agents.providers import resolve_provider
from weaver_tui.core.settings.config import Settings, load_settings, save_setting
from weaver_tui.core.settings.early import peek_settings

KEY = "sk-nested-SECRET-1234567890"
EVIL = "http://127.0.0.1:9/v1"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def config_error(**kwargs: Any) -> str:
    with pytest.raises(ConfigError) as caught:
        load_settings(**kwargs)
    message = caught.value.user_message
    assert "\n" not in message
    return message


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
def test_precedence_with_nested_names_in_every_source(
    layers: set[str],
    expected: str,
    config_file: Path,
    isolated_settings_env: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write(config_file, "provider:\n  model: from-yaml\nui:\n  theme: yaml-theme\n")
    if "yaml" not in layers:
        config_file.unlink()
    dotenv = write(isolated_settings_env / "mine.env", "WEAVER_PROVIDER__MODEL=from-dotenv\n")
    if "env" in layers:
        monkeypatch.setenv("WEAVER_PROVIDER__MODEL", "from-env")
    overrides: dict[str, Any] = {"model": "from-init"} if "init" in layers else {}

    settings = load_settings(env_file=dotenv if "dotenv" in layers else None, **overrides)

    assert settings.provider_config().model == expected
    assert settings.early().theme == ("yaml-theme" if "yaml" in layers else "weaver-dark")


def test_a_flat_name_in_a_higher_source_beats_a_nested_one_in_a_lower_source(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, "provider:\n  name: deepseek\n  model: from-yaml\n")
    monkeypatch.setenv("WEAVER_MODEL", "from-env")

    config = load_settings().provider_config()

    assert (config.provider, config.model) == ("deepseek", "from-env")


def test_a_provider_name_in_the_environment_keeps_the_files_provider_section(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, "provider:\n  name: deepseek\n  model: llama3.2\n  http_timeout: 9\n")
    monkeypatch.setenv("WEAVER_PROVIDER", "ollama")

    config = load_settings().provider_config()

    assert (config.provider, config.model, config.timeout) == ("ollama", "llama3.2", 9.0)


def test_within_one_source_the_nested_name_wins_over_its_flat_twin(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, "theme: flat-theme\nui:\n  theme: nested-theme\n")
    monkeypatch.setenv("WEAVER_CONTEXT_MESSAGES", "3")
    monkeypatch.setenv("WEAVER_TURNS__CONTEXT_MESSAGES", "7")

    settings = load_settings()

    assert settings.early().theme == "nested-theme"
    assert settings.turns.context_messages == 7


def test_nested_environment_names_reach_every_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEAVER_UI__DEFAULT_PROFILE", "mediator")
    monkeypatch.setenv("WEAVER_STORAGE__DATA_DIR", str(tmp_path / "nested-data"))
    monkeypatch.setenv("WEAVER_TURNS__TOOL_SECONDS", "12")
    monkeypatch.setenv("WEAVER_LOGGING__LEVEL", "debug")
    monkeypatch.setenv("WEAVER_PROVIDER__LOCAL_SERVERS", '{"ollama": 1234}')

    settings = load_settings()

    assert settings.early().default_profile == "mediator"
    assert settings.early().data_dir == tmp_path / "nested-data"
    assert settings.turns.tool_seconds == 12.0
    assert settings.logging.level == "DEBUG"
    assert settings.provider.local_servers == {"ollama": 1234}


def test_the_flat_json_variable_of_earlier_versions_still_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEAVER_LOCAL_SERVERS", '{"vllm": 8001}')

    assert load_settings().provider.local_servers == {"vllm": 8001}


def test_the_peek_reads_nested_names_as_validation_does(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, f"storage:\n  data_dir: {tmp_path / 'from-yaml'}\nui:\n  theme: yaml\n")
    monkeypatch.setenv("WEAVER_UI__THEME", "weaver-light")
    monkeypatch.setenv("WEAVER_DEFAULT_PROFILE", "paper-pilot")

    early = peek_settings()

    assert early == load_settings().early()
    assert (early.theme, early.default_profile) == ("weaver-light", "paper-pilot")
    assert early.data_dir == tmp_path / "from-yaml"


def test_settings_built_directly_read_the_config_file_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = write(tmp_path / "direct.yaml", "ui:\n  theme: direct\nmodel: direct-model\n")
    monkeypatch.setenv("WEAVER_CONFIG", str(other))

    settings = Settings()

    assert (settings.ui.theme, settings.provider.model) == ("direct", "direct-model")
    named = write(tmp_path / "b.yaml", "theme: b\n")
    assert Settings(config_file=named).ui.theme == "b"


def test_an_unknown_key_in_a_section_is_refused_by_name(config_file: Path) -> None:
    write(config_file, "provider:\n  temprature: 0.5\n")

    message = config_error()

    assert "'provider.temprature'" in message
    assert str(config_file) in message


def test_a_wrong_type_in_a_section_names_the_key_and_the_file(config_file: Path) -> None:
    write(config_file, "turns:\n  context_messages: many\n")

    message = config_error()

    assert message.startswith(
        f"Invalid value for turns.context_messages in the config file {config_file}"
    )
    assert "'many'" in message


def test_a_section_that_is_not_a_mapping_is_refused(config_file: Path) -> None:
    write(config_file, "ui: dark\n")

    message = config_error()

    assert message.startswith(f"Invalid value for ui in the config file {config_file}")


def test_a_bad_nested_variable_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_TURNS__CONTEXT_MESSAGES", "lots")

    message = config_error()

    assert "WEAVER_TURNS__CONTEXT_MESSAGES" in message
    assert "'lots'" in message


def test_a_bad_nested_value_in_the_env_file_names_the_file(isolated_settings_env: Path) -> None:
    dotenv = write(isolated_settings_env / "bad.env", "WEAVER_PROVIDER__HTTP_TIMEOUT=soon\n")

    message = config_error(env_file=dotenv)

    assert "provider.http_timeout" in message
    assert str(dotenv) in message


def test_a_nested_base_url_from_the_env_file_never_gets_the_users_key(
    tmp_path: Path, config_file: Path
) -> None:
    dotenv = write(tmp_path / "project.env", f"WEAVER_PROVIDER__BASE_URL={EVIL}\n")
    write(config_file, f"provider: openai-compatible\napi_key: {KEY}\n")

    with pytest.raises(ConfigError) as caught:
        resolve_provider(load_settings(env_file=dotenv).provider_config())

    message = caught.value.user_message
    assert EVIL in message
    assert str(dotenv) in message
    assert KEY not in message


def test_a_nested_api_key_is_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEAVER_PROVIDER__API_KEY", KEY)

    settings = load_settings()

    assert settings.provider.api_key is not None
    assert settings.provider.api_key.get_secret_value() == KEY
    assert KEY not in repr(settings) + str(settings) + settings.model_dump_json()


def test_save_setting_moves_the_files_flat_names_into_sections(config_file: Path) -> None:
    write(config_file, "theme: old\nmodel: kept-model\nprovider: deepseek\n")

    save_setting("ui.theme", "weaver-light")

    assert yaml.safe_load(config_file.read_text(encoding="utf-8")) == {
        "ui": {"theme": "weaver-light"},
        "provider": {"model": "kept-model", "name": "deepseek"},
    }
    config = load_settings().provider_config()
    assert (config.provider, config.model) == ("deepseek", "kept-model")


def test_save_setting_refuses_an_unknown_section_key() -> None:
    with pytest.raises(ConfigError) as caught:
        save_setting("ui.colour", "dark")

    assert "ui.colour" in caught.value.user_message


def test_every_section_key_has_a_docstring() -> None:
    for field in Settings.model_fields.values():
        model = field.annotation
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            continue
        source = inspect.getsource(model)
        for name in model.model_fields:
            block = source.split(f"\n    {name}: ", 1)[1].split("\n", 2)
            assert block[1].strip().startswith('"""'), f"{name} has no docstring"


def test_the_readme_table_names_every_setting_and_its_flat_name() -> None:
    from weaver_tui.core.settings.names import FLAT_NAMES, PROVIDER_NAME

    readme = Path(__file__).parents[2].joinpath("README.md").read_text(encoding="utf-8")
    table = readme.split("| key | flat name (env) | default | meaning |", 1)[1].split("\n\n", 1)[0]
    documented: dict[str, str] = {}
    for row in table.splitlines()[2:]:
        key, flat = (cell.strip() for cell in row.split("|")[1:3])
        documented[key.strip("`")] = flat.split("`")[1] if flat.startswith("`") else ""
    from weaver_tui.core.settings.config import settings_class

    sections = {  # the app's sections and those the registered profiles own
        f"{name}.{key}" if hasattr(field.annotation, "model_fields") else name
        for name, field in settings_class().model_fields.items()
        for key in getattr(field.annotation, "model_fields", {"": None})
    }
    flat_names = {".".join(path): flat for flat, path in FLAT_NAMES.items()}
    flat_names[".".join(PROVIDER_NAME)] = "provider"

    assert set(documented) == sections
    for key, flat in documented.items():
        if "." in key:
            assert flat_names.get(key, "") == flat, key


def test_an_empty_section_means_its_defaults(config_file: Path) -> None:
    write(config_file, "ui:\nprovider:\n  model: m\n")

    settings = load_settings()

    assert (settings.ui.theme, settings.provider.model) == ("weaver-dark", "m")
