"""Run atom calls in a separate, limited Python process, and say plainly why a run stopped.

The child is ``harness.py`` under ``python -I -S -B`` with an empty environment, in a fresh
temporary folder, in a session (and process group) of its own; it limits itself, drops root,
loads a seccomp filter (``lockdown.py``) and refuses file, process and network events with an
audit hook. Without pyseccomp and libseccomp no child is started: the run is refused rather
than run unguarded. This process only sends the code, reads
the child's stdout up to ``output_bytes``, and waits at most ``wall_seconds``; then it kills the
child's whole process group, reaps the child and removes the folder, also when the awaiting
task is cancelled. The generated code never runs in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes.util
import functools
import importlib.util
import json
import logging
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.profiles.atom_developer.validation.static_check import ALLOWED_MODULES

log = logging.getLogger(__name__)

HARNESS = Path(__file__).with_name("harness.py")
_READ_CHUNK = 65536
NO_LOCKDOWN = (
    "the atom sandbox cannot lock itself down, so no atom code was run: {why}; install"
    " the pyseccomp package and libseccomp (Debian: libseccomp2)"
)


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """What one sandbox run may use: CPU, wall time, memory, file size, and output to us."""

    cpu_seconds: int = 2
    wall_seconds: float = 5.0
    memory_bytes: int = 256 * 2**20
    file_bytes: int = 2**20
    output_bytes: int = 2**20


DEFAULT_LIMITS = SandboxLimits()


@dataclass(frozen=True, slots=True)
class Opaque:
    """A value the child could not send as plain data: its type name and a cut repr."""

    type: str
    repr: str


@dataclass(frozen=True, slots=True)
class CallOutcome:
    """One finished call: its value (or the error it raised) and its arguments afterwards."""

    ok: bool
    value: Any = None
    error: str = ""
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SandboxResult:
    """A run's outcomes in call order; ``stopped`` (with the index of the call it stopped in)
    says why the run ended before every call finished, ``load_error`` why the code failed
    while it was loaded."""

    outcomes: tuple[CallOutcome, ...]
    stopped: str = ""
    stopped_at: int | None = None
    load_error: str = ""
    printed: str = ""
    ms: float = 0.0
    pid: int = 0
    """The child's process id, also its process group's (gone when the run returns)."""
    folder: str = ""
    """The child's temporary working folder (removed when the run returns)."""


def decode(data: Any) -> Any:
    """A type-tagged value from the child back as plain Python data (or :class:`Opaque`)."""
    kind = data.get("type")
    if "value" in data and kind in ("None", "bool", "int", "float", "str"):
        return data["value"]
    if kind == "list" and "items" in data:
        return [decode(item) for item in data["items"]]
    if kind == "dict" and "items" in data:
        return {decode(k): decode(v) for k, v in data["items"]}
    return Opaque(str(kind), str(data.get("repr", "")))


def call_text(call: dict[str, Any], width: int = 30) -> str:
    """A call as it reads in Python, each argument's repr cut to ``width`` characters."""

    def short(value: Any) -> str:
        text = repr(value)
        return text if len(text) <= width else text[: width - 1] + "…"

    parts = [short(a) for a in call.get("args", [])]
    parts += [f"{k}={short(v)}" for k, v in call.get("kwargs", {}).items()]
    return f"{call['atom']}({', '.join(parts)})"


def _mib(size: int) -> str:
    return f"{size / 2**20:.0f} MiB"


def explain(call: str, error: str, limits: SandboxLimits) -> str:
    """A sentence for a call that raised ``error`` in the sandbox."""
    if error.startswith("MemoryError"):
        return f"{call} ran out of memory (limit {_mib(limits.memory_bytes)})"
    if "sandbox: " in error:
        refused = error[error.index("sandbox: ") :]
        what = {
            "open": "tried to open a file",
            "import": "tried to import a module",
            "socket.": "tried to use the network",
            "subprocess.": "tried to run a program",
            "os.system": "tried to run a program",
            "os.fork": "tried to start a process",
            "os.exec": "tried to run a program",
        }
        for event, action in what.items():
            if refused.startswith(f"sandbox: {event}"):
                return f"{call}: the atom {action} ({refused})"
        return f"{call}: the atom did something the sandbox refuses ({refused})"
    if "File too large" in error or "EFBIG" in error:
        return f"{call} wrote past the file size limit ({_mib(limits.file_bytes)})"
    return f"{call} raised {error}"


def _stop_reason(
    call: str, returncode: int | None, timed_out: bool, overflow: bool, stderr: str,
    limits: SandboxLimits,
) -> str:  # fmt: skip
    if overflow:
        return (
            f"{call} wrote more than {_mib(limits.output_bytes)} of output; the sandbox stopped it"
        )
    if timed_out:
        return f"the sandbox stopped {call} after {limits.wall_seconds:g} s (an endless loop?)"
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return (
            f"the sandbox stopped {call} after {limits.cpu_seconds} s of CPU time"
            " (an endless loop?)"
        )
    if "MemoryError" in stderr:
        return f"{call} ran out of memory (limit {_mib(limits.memory_bytes)})"
    if returncode is not None and returncode < 0:
        return f"the sandbox process died of signal {-returncode} during {call}"
    tail = stderr.strip().splitlines()[-1:] or ["no message"]
    return f"the sandbox process failed during {call} (exit {returncode}: {tail[0][:200]})"


@functools.cache
def lockdown_settings() -> dict[str, Any] | str:
    """Where the child finds pyseccomp, libc and libseccomp, or why it cannot."""
    spec = importlib.util.find_spec("pyseccomp")
    if spec is None or not spec.origin:
        return "the pyseccomp package is not installed"
    libraries = {name: ctypes.util.find_library(name) for name in ("c", "seccomp")}
    missing = [f"lib{name}" for name, path in libraries.items() if path is None]
    if missing:
        return f"{' and '.join(missing)} is not on this system"
    return {"pyseccomp": spec.origin, "libraries": libraries}


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def _read_capped(stream: asyncio.StreamReader, into: bytearray, cap: int) -> bool:
    """Append what ``stream`` gives to ``into`` up to ``cap`` bytes; True when it gave more.
    What was read stays in ``into`` when the reading is cancelled."""
    while chunk := await stream.read(_READ_CHUNK):
        into += chunk
        if len(into) > cap:
            del into[cap:]
            return True
    return False


async def _talk(
    process: asyncio.subprocess.Process, request: bytes, out: bytearray, err: bytearray, cap: int
) -> bool:
    """Send the request, read the child's output until it ends; True on an output overflow."""
    assert process.stdin
    assert process.stdout
    assert process.stderr
    out_task = asyncio.ensure_future(_read_capped(process.stdout, out, cap))
    err_task = asyncio.ensure_future(_read_capped(process.stderr, err, 65536))
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            process.stdin.write(request)
            await process.stdin.drain()
            process.stdin.close()
        if await out_task:
            return True
        await err_task
        await process.wait()
        return False
    finally:
        for task in (out_task, err_task):
            task.cancel()
        await asyncio.gather(out_task, err_task, return_exceptions=True)


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Read the killed child's pipes to their end (asyncio reports the exit only after
    that), then collect its exit status."""
    for stream in (process.stdout, process.stderr):
        while stream is not None and await stream.read(_READ_CHUNK):
            pass
    await process.wait()


def _parse(
    stdout: bytes | bytearray,
) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int | None]:
    """The child's end record (if it got that far), the results in order, and the last call
    it started."""
    end: dict[str, Any] | None = None
    results: list[dict[str, Any]] = []
    last_call: int | None = None
    for line in stdout.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        if record.get("end") is True:
            end = record
        elif record.get("result") == len(results):
            results.append(record)
        elif isinstance(record.get("call"), int):
            last_call = record["call"]
    return end, results, last_call


def _outcome(record: dict[str, Any]) -> CallOutcome:
    args = tuple(decode(a) for a in record.get("args", []))
    kwargs = {k: decode(v) for k, v in record.get("kwargs", {}).items()}
    if record.get("ok"):
        return CallOutcome(True, decode(record["value"]), "", args, kwargs)
    return CallOutcome(False, None, str(record.get("error", "")), args, kwargs)


def _refused(why: str, started: float, pid: int = 0, folder: str = "") -> SandboxResult:
    reason = NO_LOCKDOWN.format(why=why)
    log.error("atom sandbox refused to run: %s", reason)
    ms = (time.perf_counter() - started) * 1000
    return SandboxResult((), stopped=reason, stopped_at=0, ms=ms, pid=pid, folder=folder)


async def run_atoms(
    code: str, calls: list[dict[str, Any]], limits: SandboxLimits = DEFAULT_LIMITS
) -> SandboxResult:
    """Run ``calls`` (``{"atom", "args", "kwargs"}``) on the atoms ``code`` defines, in the
    sandbox, all in one child process."""
    started = time.perf_counter()
    lockdown = lockdown_settings()
    if isinstance(lockdown, str):
        return _refused(lockdown, started)
    settings = {
        **lockdown,
        "cpu_seconds": limits.cpu_seconds,
        "memory_bytes": limits.memory_bytes,
        "file_bytes": limits.file_bytes,
        "allowed_modules": sorted(ALLOWED_MODULES),
    }
    request = json.dumps({"code": code, "calls": calls}).encode("utf-8")
    timed_out = overflow = False
    stdout, stderr = bytearray(), bytearray()
    with tempfile.TemporaryDirectory(prefix="weaver-atom-", ignore_cleanup_errors=True) as folder:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-S", "-B", str(HARNESS), json.dumps(settings),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env={}, cwd=folder, start_new_session=True,
        )  # fmt: skip
        try:
            overflow = await asyncio.wait_for(
                _talk(process, request, stdout, stderr, limits.output_bytes),
                limits.wall_seconds,
            )
        except TimeoutError:
            timed_out = True
        finally:
            _kill_group(process.pid)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await asyncio.shield(_reap(process))
    end, results, last_call = _parse(stdout)
    ms = (time.perf_counter() - started) * 1000
    outcomes = tuple(_outcome(r) for r in results)
    if end is not None and end.get("lockdown_error") and not results:
        return _refused(str(end["lockdown_error"]), started, process.pid, folder)
    if end is not None and not overflow:
        return SandboxResult(
            outcomes, load_error=str(end.get("load_error", "")),
            printed=str(end.get("printed", "")), ms=ms, pid=process.pid, folder=folder,
        )  # fmt: skip
    at = last_call if last_call is not None else 0
    call = call_text(calls[at]) if calls else "the atom module"
    if last_call is None and calls:
        call = f"loading the code (before {call})"
    reason = _stop_reason(
        call, process.returncode, timed_out, overflow, stderr.decode("utf-8", "replace"), limits
    )
    log.info("atom sandbox stopped: %s", reason)
    return SandboxResult(
        outcomes, stopped=reason, stopped_at=at, ms=ms, pid=process.pid, folder=folder
    )
