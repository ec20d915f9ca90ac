"""The sandbox contains code that skips level 1: hangs, bombs, files, network, programs and
imports are stopped or refused, and no process or folder is left behind."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

from agents.profiles.atom_developer.validation.sandbox import (
    Opaque,
    SandboxLimits,
    SandboxResult,
    explain,
    run_atoms,
)
from tests.atom_developer.conftest import atom_file

HOSTILE = atom_file("hostile")


async def run(*names: str, limits: SandboxLimits | None = None) -> SandboxResult:
    calls = [{"atom": name, "args": [1], "kwargs": {}} for name in names]
    return await run_atoms(HOSTILE, calls, limits or SandboxLimits())


def group_gone(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_plain_results_come_back_typed_and_the_rest_as_type_and_repr() -> None:
    result = await run("fine")
    (outcome,) = result.outcomes
    assert outcome.value == [1, {"k": Opaque("tuple", "(1, 2)")}, None, 1.5, True]


async def test_an_endless_loop_is_stopped_by_the_cpu_limit_naming_the_call() -> None:
    result = await run("fine", "loop", "fine", limits=SandboxLimits(cpu_seconds=1))
    assert result.stopped == "the sandbox stopped loop(1) after 1 s of CPU time (an endless loop?)"
    assert result.stopped_at == 1
    assert len(result.outcomes) == 1
    assert group_gone(result.pid)
    assert not await asyncio.to_thread(Path(result.folder).exists)


async def test_an_endless_loop_is_stopped_by_the_wall_clock() -> None:
    result = await run("loop", limits=SandboxLimits(cpu_seconds=30, wall_seconds=1))
    assert result.stopped == "the sandbox stopped loop(1) after 1 s (an endless loop?)"
    assert group_gone(result.pid)


async def test_a_memory_bomb_runs_out_of_memory_and_the_next_call_still_runs() -> None:
    result = await run("memory_bomb", "fine")
    bomb, after = result.outcomes
    assert explain("memory_bomb(1)", bomb.error, SandboxLimits()) == (
        "memory_bomb(1) ran out of memory (limit 256 MiB)"
    )
    assert after.ok


async def test_a_fork_bomb_is_refused() -> None:
    (outcome,) = (await run("fork_bomb")).outcomes
    assert outcome.error == "RuntimeError: sandbox: os.fork is not allowed"


@pytest.mark.parametrize("name", ["big_file", "big_file_low_level", "passwd"])
async def test_files_cannot_be_opened(name: str) -> None:
    result = await run(name)
    assert result.outcomes[0].error == "RuntimeError: sandbox: open is not allowed"
    assert explain(name, result.outcomes[0].error, SandboxLimits()) == (
        f"{name}: the atom tried to open a file (sandbox: open is not allowed)"
    )
    assert not await asyncio.to_thread(Path(result.folder).exists)


async def test_what_the_atom_prints_is_kept_in_a_small_buffer() -> None:
    result = await run("chatty")
    assert result.outcomes[0].value == "done"
    assert len(result.printed) == 4096


async def test_a_flood_on_the_atoms_stdout_reaches_nobody() -> None:
    result = await run("flood_stdout", "fine")
    assert result.stopped == ""
    assert [outcome.ok for outcome in result.outcomes] == [True, True]


@pytest.mark.parametrize("name", ["huge_value", "huge_reply"])
async def test_a_reply_past_the_output_limit_stops_the_run_unread(name: str) -> None:
    result = await run("fine", name, "fine")
    assert result.stopped == f"{name}(1) wrote more than 1 MiB of output; the sandbox stopped it"
    assert result.stopped_at == 1
    assert len(result.outcomes) == 1
    assert group_gone(result.pid)


async def test_a_call_holds_only_the_null_device_and_its_own_reply_pipe() -> None:
    (outcome,) = (await run("descriptors")).outcomes
    assert outcome.value == [0, 1, 2, 3]


async def test_a_reply_written_by_hand_is_that_calls_value_and_nothing_more() -> None:
    result = await run("own_reply", "fine")
    assert [outcome.value for outcome in result.outcomes] == ["mine", [1, {"k": Opaque("tuple", "(1, 2)")}, None, 1.5, True]]  # fmt: skip
    assert result.stopped == ""


async def test_each_call_runs_in_a_child_of_its_own() -> None:
    result = await run("pid", "pid")
    first, second = (outcome.value for outcome in result.outcomes)
    assert first != second
    assert result.pid not in (first, second)


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("connect", "RuntimeError: sandbox: import of socket is not allowed"),
        ("run_program", "RuntimeError: sandbox: import of subprocess is not allowed"),
        ("system", "RuntimeError: sandbox: os.system is not allowed"),
        ("import_os", "RuntimeError: sandbox: import of os is not allowed"),
    ],
)
async def test_network_programs_and_imports_are_refused(name: str, error: str) -> None:
    assert (await run(name)).outcomes[0].error == error


async def test_cancelling_the_run_kills_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[asyncio.subprocess.Process] = []
    real = asyncio.create_subprocess_exec

    async def spy(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        process = await real(*args, **kwargs)
        started.append(process)
        return process

    monkeypatch.setattr(asyncio, "create_subprocess_exec", spy)
    task = asyncio.ensure_future(run("loop", limits=SandboxLimits(cpu_seconds=30)))
    deadline = time.monotonic() + 30
    while not started:  # cancel as soon as the child runs: its loop would only burn CPU
        assert time.monotonic() < deadline, "the sandbox child never started"
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    (process,) = started
    assert process.returncode is not None
    assert group_gone(process.pid)
