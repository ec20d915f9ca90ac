"""The in-process ``weaver`` fixture behaves as a new process would, and leaves nothing behind:
the test's environment, folder, logging and profile registry are the same after a call."""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import agents.profile_registry as registry
from weaver_tui.core import cli

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def test_a_call_sees_only_its_own_environment_and_leaves_the_tests_alone(
    weaver: Weaver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEAVER_CONTEXT_MESSAGES", "lots")  # a bad setting the call must not see
    root = logging.getLogger()
    handlers, level, cwd = root.handlers[:], root.level, Path.cwd()

    result = weaver("ask", "--profile", "researcher", "hello", env={"WEAVER_PROVIDER": "offline"})

    assert result.returncode == 0, result.stderr
    assert os.environ["WEAVER_CONTEXT_MESSAGES"] == "lots"
    assert "WEAVER_PROVIDER" not in os.environ
    assert Path.cwd() == cwd
    assert (root.handlers, root.level) == (handlers, level)
    assert "researcher" not in registry.PROFILE_NAMES  # registered for the call only


def test_the_calls_log_file_is_complete_when_it_returns(weaver: Weaver, tmp_path: Path) -> None:
    result = weaver("ask", "hello", env={"WEAVER_PROVIDER": "offline"})

    assert result.returncode == 0, result.stderr
    log = (tmp_path / "data" / "weaver.log").read_text(encoding="utf-8")
    assert '"turn finished"' in log


def test_an_uncaught_exception_is_a_traceback_and_exit_1(
    weaver: Weaver, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> int:
        raise RuntimeError("a bug in a verb")

    monkeypatch.setattr(cli, "list_conversations", broken)

    result = weaver("conversations", env={"WEAVER_PROVIDER": "offline"})

    assert result.returncode == 1
    assert "Traceback" in result.stderr
    assert "RuntimeError: a bug in a verb" in result.stderr


def test_argparse_exits_become_the_exit_status(weaver: Weaver) -> None:
    assert weaver("--version").returncode == 0
    refused = weaver("ask")
    assert refused.returncode == 2
    assert "the following arguments are required: text" in refused.stderr


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--provider", "offline"),
        ("serve",),
        ("acp",),
        ("space", "open"),
        ("space", "join", "http://127.0.0.1:8000/?seat=abc"),
        ("space",),
    ],
)
def test_the_app_and_the_verbs_that_need_a_process_are_refused(
    weaver: Weaver, args: tuple[str, ...]
) -> None:
    with pytest.raises(pytest.fail.Exception, match="use subprocess_cli"):
        weaver(*args)


def test_closing_a_space_only_changes_the_data_folder_so_it_runs_in_process(
    weaver: Weaver,
) -> None:
    result = weaver("space", "close", "--conversation", "no-such-conversation")

    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "no-such-conversation" in result.stderr
    assert "Traceback" not in result.stderr
