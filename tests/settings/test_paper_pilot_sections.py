"""paper-pilot's sections of the settings: its limits (``paper_pilot``), the web search's
``max_results`` and a model per role (``roles``), from config.yaml or ``WEAVER_*`` variables,
reach the profile as plain values; a role's key is a secret; a role that does not exist, or
a limit out of range, is refused in one sentence naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.errors import ConfigError
from weaver_tui.core.settings.config import load_settings


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_roles_limits_and_results_reach_the_profile(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, "roles:\n  critic: {name: ollama, model: 'qwen3:4b', api_key: sk-role-1}\n"
                       "paper_pilot: {max_retries: 1, follow_up_top_k: 9}\n"
                       "web_search: {max_results: 3}\n")  # fmt: skip
    monkeypatch.setenv("WEAVER_ROLES__ROUTER__MODEL", "tiny-router")
    monkeypatch.setenv("WEAVER_ROLES__SUMMARY__MODEL", "tiny-summary")
    monkeypatch.setenv("WEAVER_ROLES__SUMMARY__BASE_URL", "http://127.0.0.1:9/v1")

    settings = load_settings()
    profile = settings.profile_settings()

    assert profile["roles"]["critic"] == {"name": "ollama", "model": "qwen3:4b", "api_key": "sk-role-1"}  # fmt: skip
    assert profile["roles"]["router"] == {"model": "tiny-router"}
    assert profile["roles"]["summary"] == {"model": "tiny-summary", "base_url": "http://127.0.0.1:9/v1"}  # fmt: skip
    assert profile["paper_pilot"] == {"max_retries": 1, "follow_up_top_k": 9}
    assert profile["web_search"] == {"max_results": 3}
    assert "sk-role-1" in settings.secrets()
    assert "sk-role-1" not in repr(settings.roles)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("roles:\n  narrator: {model: m}\n", "roles.narrator"),
        ("paper_pilot:\n  max_retries: 99\n", "paper_pilot.max_retries"),
        ("web_search:\n  max_results: 0\n", "web_search.max_results"),
    ],
)
def test_a_role_or_limit_that_cannot_be_is_refused_by_name(
    config_file: Path, text: str, named: str
) -> None:
    write(config_file, text)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = caught.value.user_message
    assert "\n" not in message
    assert named in message
