"""A profile's own command-line verbs: found in the registry, parsed, run with the user's folders."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from agents.profile import CommandContext, ProfileCommand
from weaver_tui import launch
from weaver_tui.core import cli


def _echo_command(seen: list[tuple[argparse.Namespace, CommandContext]]) -> ProfileCommand:
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("word")
        parser.add_argument("--loud", action="store_true")

    def run(args: argparse.Namespace, context: CommandContext) -> int:
        seen.append((args, context))
        context.out.write(args.word.upper() if args.loud else args.word)
        return 3

    return ProfileCommand(name="echo", help="say a word", add_arguments=add_arguments, run=run)


@pytest.fixture
def echo(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> list[tuple[argparse.Namespace, CommandContext]]:
    seen: list[tuple[argparse.Namespace, CommandContext]] = []
    monkeypatch.setattr(cli, "profile_commands", lambda: {"echo": _echo_command(seen)})
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "cfg" / "config.yaml"))
    return seen


def test_a_profile_verb_runs_with_its_arguments_and_the_user_folders(
    echo: list[tuple[argparse.Namespace, CommandContext]],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code = launch.main(["--provider", "offline", "echo", "hello", "--loud"])

    assert code == 3
    assert capsys.readouterr().out == "HELLO"
    ((args, context),) = echo
    assert args.word == "hello"
    assert context.data_dir == (tmp_path / "data").resolve()
    assert context.config_dir == tmp_path / "cfg"


def test_built_in_verbs_and_the_app_do_not_load_the_profiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse() -> dict[str, ProfileCommand]:
        raise AssertionError("profiles loaded")

    monkeypatch.setattr(cli, "profile_commands", refuse)
    assert not cli._wants_profile_commands(["--profile", "mediator", "--model", "m"])
    assert not cli._wants_profile_commands(["--config", "x.yaml", "conversations"])
    assert cli._wants_profile_commands(["--config", "x.yaml", "kb", "list"])
    assert cli._wants_profile_commands(["--help"])


def test_an_unknown_verb_is_a_usage_error(
    echo: list[tuple[argparse.Namespace, CommandContext]], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        launch.main(["nonsense"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
