"""A fifth profile with a setting, a key and a panel of its own, added in one folder
(``tests/support/quintet_profile``) and one registry line: its settings section is read from
the config file and the environment, validated like the app's own, and reaches its turns."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agents.errors import ConfigError
from tests.support.quintet_registry import QUINTET, register_quintet
from weaver_tui.core.settings.config import Settings, load_settings
from weaver_tui.core.settings.names import FLAT_NAMES

Weaver = Callable[..., subprocess.CompletedProcess[str]]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def quintet(monkeypatch: pytest.MonkeyPatch) -> None:
    register_quintet(monkeypatch)


def test_its_section_is_read_from_the_file_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("quintet:\n  greeting: Ahoy\n", encoding="utf-8")
    monkeypatch.setenv("WEAVER_QUINTET__EVERY", "2")
    loaded = load_settings(config_file=config, env_file=None)
    assert loaded.profile_settings()["quintet"] == {"greeting": "Ahoy", "every": 2}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("quintet:\n  every: 0\n", "quintet.every"),
        ("quintet:\n  greting: hi\n", "greting"),
    ],
)
def test_a_wrong_value_or_key_in_its_section_is_one_sentence(
    tmp_path: Path, text: str, said: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config_file=config, env_file=None)
    message = raised.value.user_message
    assert said in message
    assert message.count("\n") == 0


@settings(max_examples=50, deadline=None)
@given(greeting=st.text(st.characters(categories=["L", "N", "Zs"]), min_size=1, max_size=30))
def test_any_greeting_set_reaches_what_the_profile_reads(greeting: str) -> None:
    """The class: whatever value the user sets in the section is what the profile reads."""
    loaded = load_settings(
        env_file=None, config_file="/nonexistent/config.yaml", quintet={"greeting": greeting}
    )
    assert loaded.profile_settings()["quintet"]["greeting"] == greeting


def test_its_turn_reads_its_setting(weaver: Weaver, tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("quintet:\n  greeting: Ahoy\n", encoding="utf-8")
    done = weaver("--provider", "offline", "--profile", QUINTET, "ask", "count me in")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Ahoy: count me in")


def test_nothing_outside_its_folder_names_it() -> None:
    """The app, the agents and the storage know the profile only through the registry."""
    for package in ("weaver_tui", "agents", "storage"):
        for path in (REPO / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "quintet" not in text.lower(), path


_APP_KEYS = set(Settings.model_fields) | set(FLAT_NAMES)


@settings(max_examples=60, deadline=None)
@given(key=st.from_regex(r"[a-z][a-z_]{2,12}", fullmatch=True))
def test_a_top_level_key_no_section_owns_is_refused(key: str) -> None:
    """The class: a key in the config file that is neither the app's nor a section a
    registered profile owns is refused by name, never ignored."""
    assume(key not in _APP_KEYS and key != QUINTET)
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.yaml"
        config.write_text(f"{key}: 1\n", encoding="utf-8")
        with pytest.raises(ConfigError, match="Unknown setting"):
            load_settings(config_file=config, env_file=None)
