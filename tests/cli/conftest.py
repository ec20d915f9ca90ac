"""The ``weaver-tui`` command, isolated in a temporary data folder: ``weaver`` runs it inside
the test process (fast), ``subprocess_cli`` as a real ``python -m weaver_tui`` process for the
tests where the process itself is what is tested (signals, pipes, start-up imports, servers)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import IO

import pytest

from tests.support.in_process_cli import needs_a_process, run_in_process

REPO = Path(__file__).resolve().parents[2]
CLI_TIMEOUT_S = 120


def isolated_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The parent's environment without any provider or weaver setting, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("WEAVER_", "OPENAI_", "MOONSHOT_", "DEEPSEEK_", "DASHSCOPE_"))
        and k != "AGENT_LOG_REDACT_CONTENT"
    }
    # The hook folder's sitecustomize registers the test-only ``researcher`` profile.
    hook = REPO / "tests" / "support" / "profile_hook"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(hook), str(REPO), env.get("PYTHONPATH")]))
    env["WEAVER_DATA_DIR"] = str(tmp_path / "data")
    env["WEAVER_CONFIG"] = str(tmp_path / "config.yaml")
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


@pytest.fixture
def weaver(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``weaver(*args, env={...}, stdin=...)`` runs ``weaver-tui *args`` in this process, in
    ``tmp_path`` with ``isolated_env``; ``stdin`` is bytes piped to it (the pipe then closed, as
    ``subprocess.run(input=...)`` does) or an open file. The app and the verbs that need a
    process of their own are refused (use ``subprocess_cli``)."""

    def run(
        *args: str, env: dict[str, str] | None = None, stdin: bytes | IO[str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        if needs_a_process(args):
            pytest.fail(f"weaver-tui {' '.join(args)} needs a process: use subprocess_cli")
        with ExitStack() as stack:
            if isinstance(stdin, bytes):
                stdin = stack.enter_context(piped(stdin))
            return run_in_process(
                args,
                env=isolated_env(tmp_path, **(env or {})),
                cwd=tmp_path,
                capfd=capfd,
                monkeypatch=monkeypatch,
                stdin=stdin,
            )

    return run


@contextmanager
def piped(data: bytes) -> Iterator[IO[str]]:
    """The read end of a pipe that carries ``data`` and then ends, as a process's stdin; a
    thread writes it, so data larger than the pipe's buffer does not block the test."""
    read_end, write_end = os.pipe()

    def write() -> None:
        with suppress(BrokenPipeError), open(write_end, "wb") as writer:
            writer.write(data)  # the command may stop reading early: its pipe breaks

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    with open(read_end, encoding="utf-8") as reader:
        yield reader
    writer.join(timeout=CLI_TIMEOUT_S)


@pytest.fixture
def subprocess_cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``subprocess_cli(*args, env={...}, code=None)`` runs ``python -m weaver_tui *args`` (or
    ``python -c code *args``) in ``tmp_path``: for what only a real process shows (its exit
    status, its imports, its servers)."""

    def run(
        *args: str, env: dict[str, str] | None = None, code: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        command = (
            [sys.executable, "-c", code, *args]
            if code
            else [sys.executable, "-m", "weaver_tui", *args]
        )
        return subprocess.run(
            command,
            cwd=tmp_path,
            env=isolated_env(tmp_path, **(env or {})),
            capture_output=True,
            text=True,
            timeout=CLI_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )

    return run
