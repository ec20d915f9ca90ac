"""The sandbox's operating-system boundary: code that gets past level 1 and switches the
sandbox's audit hook off still cannot run a program, write or read a file, open a socket or
signal another process; as root the atom runs as nobody; without seccomp no atom runs."""

from __future__ import annotations

import asyncio
import errno
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.profiles.atom_developer import validation
from agents.profiles.atom_developer.validation import sandbox
from agents.profiles.atom_developer.validation.sandbox import CallOutcome, run_atoms
from agents.profiles.atom_developer.validation.static_check import StaticResult
from tests.atom_developer.conftest import atom_file

EXTENSION = importlib.util.find_spec("_posixsubprocess").origin  # type: ignore[union-attr]


@pytest.fixture
def marker() -> Iterator[Path]:
    """A path in a folder anyone may write to, so only the boundary can stop the write."""
    folder = Path(tempfile.mkdtemp(prefix="weaver-escape-"))
    folder.chmod(0o777)
    yield folder / "escaped"
    shutil.rmtree(folder)


def escape_code(marker: Path) -> str:
    code = atom_file("escape").replace("{marker}", str(marker))
    return code.replace("{extension}", str(EXTENSION))


async def run_one(marker: Path, name: str) -> CallOutcome:
    result = await run_atoms(escape_code(marker), [{"atom": name, "args": [1], "kwargs": {}}])
    assert result.stopped == ""
    assert result.load_error == ""
    (outcome,) = result.outcomes
    return outcome


async def test_the_reported_exploit_past_level_1_fails_level_2_and_runs_nothing(
    marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bypassed = StaticResult(atoms=("check_existence",))
    monkeypatch.setattr(validation, "check_static", lambda code: bypassed)
    report = await validation.avalidate(escape_code(marker))
    assert report.levels[1].status == "failed"
    assert not report.valid
    assert not await asyncio.to_thread(marker.exists)


async def test_the_audit_hook_is_really_off_in_these_runs(marker: Path) -> None:
    assert (await run_one(marker, "unhooked_frame")).value == "unhooked_frame"


@pytest.mark.parametrize(
    "name",
    ["unhooked_fork_exec", "unhooked_system", "unhooked_fork", "unhooked_write", "unhooked_mknod"],
)
async def test_without_the_hook_no_program_runs_and_no_file_is_made(
    marker: Path, name: str
) -> None:
    outcome = await run_one(marker, name)
    assert not await asyncio.to_thread(marker.exists)
    assert not outcome.ok or outcome.value != 0


async def test_without_the_hook_no_socket_opens(marker: Path) -> None:
    assert (await run_one(marker, "unhooked_socket")).value == [-1, errno.EPERM]


@pytest.mark.parametrize("name", ["unhooked_read", "unhooked_kill_parent"])
async def test_without_the_hook_no_file_is_read_and_no_process_signalled(
    marker: Path, name: str
) -> None:
    assert (await run_one(marker, name)).error.startswith("PermissionError")


async def test_as_root_the_atom_runs_as_nobody_with_no_groups(marker: Path) -> None:
    ids = (await run_one(marker, "who_am_i")).value
    if os.geteuid() == 0:
        assert ids == [65534] * 6 + [[]]
    else:
        assert ids[:3] == list(os.getresuid())


async def test_without_pyseccomp_no_child_starts(
    marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "lockdown_settings", lambda: "the pyseccomp package is missing")
    report = await validation.avalidate(atom_file("only_existence"))
    assert report.levels[1].status == "failed"
    assert report.levels[1].errors == (
        "the atom sandbox cannot lock itself down, so no atom code was run: the pyseccomp"
        " package is missing; install the pyseccomp package and libseccomp (Debian: libseccomp2)",
    )


async def test_when_the_child_cannot_load_libseccomp_the_atom_never_runs(
    marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = sandbox.lockdown_settings()
    assert isinstance(settings, dict)
    broken = {**settings, "libraries": {"c": "libc.so.6", "seccomp": "libmissing.so.9"}}
    monkeypatch.setattr(sandbox, "lockdown_settings", lambda: broken)
    result = await run_atoms(
        escape_code(marker), [{"atom": "unhooked_mknod", "args": [1], "kwargs": {}}]
    )
    assert result.outcomes == ()
    assert result.stopped.startswith(
        "the atom sandbox cannot lock itself down, so no atom code was run: libseccomp could"
        " not be loaded (libmissing.so.9: cannot open shared object file"
    )
    assert not await asyncio.to_thread(marker.exists)
