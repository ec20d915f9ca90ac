"""Run the ``weaver-tui`` command inside the test process, as a new process would see it.

Starting ``python -m weaver_tui`` costs one to two seconds of imports per call; calling the
console script's ``main(argv)`` costs none of that. What a new process would not inherit from
the test is set aside for the call: the environment (only ``isolated_env``'s), the working
folder, stdin (``/dev/null`` unless the test gives one), the root logger's handlers and levels
(so a warning logged before the CLI sets up its log file reaches stderr, as Python's last
resort prints it), and an uncaught exception becomes a traceback on stderr and exit code 1, as
the interpreter does.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import IO

import mcp.client.stdio  # noqa: F401 (see below)
import pytest

from weaver_tui import launch
from weaver_tui.core import cli
from weaver_tui.core.logs import NOISY_LOGGERS

# ``mcp.client.stdio`` takes ``sys.stderr`` as its default error log when it is imported: an
# import during a call would keep the call's capture file, closed after it, for every later
# MCP server of the session. Imported here, it keeps the session's stderr.

PROCESS_VERBS = frozenset({"serve", "acp", "space"})
"""Verbs whose process matters (a server, a protocol on stdio, seats in child processes)."""


PROCESS_FREE_ACTIONS = frozenset({("space", "close"), ("space", "record"), ("space", "demo")})
"""Actions of those verbs that only change the data folder (``space close`` revokes links,
``space record`` writes a file, ``space demo`` plays turns in this process)."""


def needs_a_process(argv: Sequence[str]) -> bool:
    """Whether ``argv`` starts the app or a verb that only a real process can run."""
    if any(token in ("-h", "--help", "--version") for token in argv):
        return False
    verb = cli._first_verb(argv)
    if verb is None:
        return True
    action = cli._first_verb(argv[list(argv).index(verb) + 1 :])
    return verb in PROCESS_VERBS and (verb, action) not in PROCESS_FREE_ACTIONS


def run_in_process(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: IO[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``weaver-tui *argv`` with ``env`` as the whole environment, in ``cwd``, reading
    ``stdin`` (``/dev/null`` when none is given)."""
    capfd.readouterr()  # what the test printed so far is not the command's output
    with (
        monkeypatch.context() as patch,
        open(os.devnull, encoding="utf-8") if stdin is None else nullcontext(stdin) as stdin,
        _environment(env),
        _logging_of_a_new_process(),
    ):
        patch.chdir(cwd)
        patch.setattr(sys, "stdin", stdin)
        _register_test_profiles(patch)
        code = _exit_code(list(argv))
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(["weaver-tui", *argv], code, out, err)


def _exit_code(argv: list[str]) -> int:
    """What the process would exit with: ``main``'s return value, ``SystemExit``'s code, or
    1 after printing the traceback of an exception nothing caught."""
    try:
        return launch.main(argv)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 (the interpreter's own last resort, imitated)
        traceback.print_exc()
        return 1


@contextmanager
def _environment(env: Mapping[str, str]) -> Iterator[None]:
    """``env`` as the whole of ``os.environ`` for the call, then the test's again."""
    before = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(before)


@contextmanager
def _logging_of_a_new_process() -> Iterator[None]:
    """No root handler and the default level, as at start-up; the handlers the CLI adds are
    closed afterwards (so its log file is complete) and pytest's are put back."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in NOISY_LOGGERS}
    root.handlers = []
    root.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers = handlers
        root.setLevel(level)
        for name, noisy_level in levels.items():
            logging.getLogger(name).setLevel(noisy_level)


def _register_test_profiles(patch: pytest.MonkeyPatch) -> None:
    """The test-only ``researcher`` profile, as ``profile_hook``'s sitecustomize registers it
    in every process the tests start; undone after the call."""
    import agents.profile_registry as registry
    from tests.support.profiles import PACKAGE, RESEARCHER

    packages = {**registry.PROFILE_PACKAGES, RESEARCHER: PACKAGE}
    patch.setattr(registry, "PROFILE_PACKAGES", packages)
    patch.setattr(registry, "PROFILE_NAMES", tuple(packages))
