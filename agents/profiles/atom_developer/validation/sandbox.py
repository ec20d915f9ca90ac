"""Run atom calls in separate, limited processes, and say plainly why a run stopped.

The sandbox process is ``harness.py`` under ``python -I -S -B`` with an empty environment, in a
fresh temporary folder, in a session (and process group) of its own: a fork server that runs
none of the atom's code. Each call runs in a child it forks, which limits itself, drops root,
loads a seccomp filter (``lockdown.py``), refuses file, process and network events with an
audit hook and answers on a pipe of its own; the server frames each answer for us. Without
pyseccomp and libseccomp no process is started: the run is refused rather than run unguarded.
This process only sends the code, reads the server's stdout up to ``output_bytes``, and waits at
most ``wall_seconds``; then it asks the server to end (it kills and reaps its child), kills the
whole process group if it has not, reaps the server and removes the folder, also when the
awaiting task is cancelled. What it reads is checked record by record and value by value; a
record or a reply that is not what the protocol says is :data:`UNREADABLE`, one sentence. The
generated code never runs in this process.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.profiles.atom_developer.validation.static_check import ALLOWED_MODULES

log = logging.getLogger(__name__)

HARNESS = Path(__file__).with_name("harness.py")
MAX_PRINTED = 4096
STOP_GRACE_SECONDS = 2.0
_READ_CHUNK = 65536
NO_LOCKDOWN = (
    "the atom sandbox cannot lock itself down, so no atom code was run: {why}; install"
    " the pyseccomp package and libseccomp (Debian: libseccomp2)"
)


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """What one sandbox run may use: CPU, memory and file size for each call (each runs in a
    child of its own), wall time for the whole run, and output to us (the whole run's, and
    each call's reply)."""

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
    """The fork server's process id, also its process group's (gone when the run returns)."""
    folder: str = ""
    """The sandbox's temporary working folder (removed when the run returns)."""
    refused: bool = False
    """The sandbox ran none of the code: it cannot lock itself down (``stopped`` says why)."""


class Unreadable(Exception):
    """A record or a reply that is not what the protocol says it is."""


UNREADABLE = "the atom's run produced an unreadable report"
MAX_DECODE_DEPTH = 64
_PLAIN: dict[str, tuple[type, ...]] = {
    "None": (type(None),), "bool": (bool,), "int": (int,), "float": (float, int), "str": (str,),
}  # fmt: skip


def decode(data: Any, depth: int = 0) -> Any:
    """A type-tagged value from a child's reply back as plain Python data (or :class:`Opaque`);
    :class:`Unreadable` for anything else: a wrong shape, a dict item that is not a pair, a
    key that cannot be one, nesting past ``MAX_DECODE_DEPTH``."""
    if depth > MAX_DECODE_DEPTH or not isinstance(data, dict):
        raise Unreadable
    kind = data.get("type")
    if kind in _PLAIN and "value" in data:
        value = data["value"]
        if not isinstance(value, _PLAIN[kind]) or (kind == "int" and isinstance(value, bool)):
            raise Unreadable
        return value
    if kind == "list" and isinstance(data.get("items"), list):
        return [decode(item, depth + 1) for item in data["items"]]
    if kind == "dict" and isinstance(data.get("items"), list):
        result: dict[Any, Any] = {}
        for pair in data["items"]:
            if not isinstance(pair, list) or len(pair) != 2:
                raise Unreadable
            key = decode(pair[0], depth + 1)
            if isinstance(key, list | dict):
                raise Unreadable
            result[key] = decode(pair[1], depth + 1)
        return result
    if isinstance(kind, str) and isinstance(data.get("repr", ""), str):
        return Opaque(kind, str(data.get("repr", "")))
    raise Unreadable


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


async def _stop(process: asyncio.subprocess.Process) -> None:
    """End the fork server and its child: asked first (it kills and reaps the child it is
    waiting for, so no process is left for init to collect), then killed with its whole process
    group if it has not ended within ``STOP_GRACE_SECONDS``."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_reap(process), STOP_GRACE_SECONDS)
    _kill_group(process.pid)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    await _reap(process)


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Read the killed child's pipes to their end (asyncio reports the exit only after
    that), then collect its exit status."""
    for stream in (process.stdout, process.stderr):
        while stream is not None and await stream.read(_READ_CHUNK):
            pass
    await process.wait()


@dataclass(slots=True)
class _Stream:
    """The fork server's records: the step it started last, each step's reply, the step whose
    child gave no reply (and how it ended), and the end record."""

    started: int | None = None
    replies: dict[int, str] = field(default_factory=dict)
    died: dict[str, Any] | None = None
    end: dict[str, Any] | None = None


def _field(record: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = record.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise Unreadable
    return value


def _record(line: bytes, stream: _Stream) -> None:
    """Read one line of the fork server into ``stream``, or raise :class:`Unreadable`."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError, MemoryError) as exc:
        raise Unreadable from exc
    if not isinstance(record, dict) or stream.end is not None:
        raise Unreadable
    if "start" in record:
        stream.started = _field(record, "start", int)
    elif "reply" in record:
        index = _field(record, "reply", int)
        if index != stream.started or index in stream.replies:
            raise Unreadable
        stream.replies[index] = _field(record, "payload", str)
    elif "died" in record:
        if _field(record, "died", int) != stream.started:
            raise Unreadable
        _field(record, "overflow", bool)
        if record.get("returncode") is not None:
            _field(record, "returncode", int)
        stream.died = record
    elif record.get("end") is True:
        for key in ("load_error", "lockdown_error"):
            if key in record:
                _field(record, key, str)
        stream.end = record
    else:
        raise Unreadable


def read_stream(stdout: bytes | bytearray, cut: bool = False) -> _Stream:
    """The fork server's records in ``stdout`` (``cut``: the output limit cut it, so its last
    line may be partial); :class:`Unreadable` when a line is not one of them."""
    stream = _Stream()
    lines = bytes(stdout).split(b"\n")
    if lines and (cut or not lines[-1]):
        lines.pop()
    for line in lines:
        _record(line, stream)
    return stream


def read_reply(text: str) -> dict[str, Any]:
    """A child's reply as a dict (its JSON, untrusted), or :class:`Unreadable`."""
    try:
        reply = json.loads(text)
    except (ValueError, RecursionError, MemoryError) as exc:
        raise Unreadable from exc
    if not isinstance(reply, dict):
        raise Unreadable
    return reply


def read_outcome(reply: dict[str, Any]) -> CallOutcome:
    """A call's reply as a :class:`CallOutcome`, or :class:`Unreadable`."""
    raw_args, raw_kwargs = reply.get("args", []), reply.get("kwargs", {})
    if not isinstance(raw_args, list) or not isinstance(raw_kwargs, dict):
        raise Unreadable
    args = tuple(decode(a) for a in raw_args)
    kwargs = {str(k): decode(v) for k, v in raw_kwargs.items()}
    ok = reply.get("ok")
    if ok is True and "value" in reply:
        return CallOutcome(True, decode(reply["value"]), "", args, kwargs)
    if ok is False and isinstance(reply.get("error", ""), str):
        return CallOutcome(False, None, str(reply.get("error", "")), args, kwargs)
    raise Unreadable


def _printed(replies: list[dict[str, Any]]) -> str:
    text = "".join(r["printed"] for r in replies if isinstance(r.get("printed"), str))
    return text[:MAX_PRINTED]


def _refused(why: str, started: float, pid: int = 0, folder: str = "") -> SandboxResult:
    reason = NO_LOCKDOWN.format(why=why)
    log.error("atom sandbox refused to run: %s", reason)
    ms = (time.perf_counter() - started) * 1000
    return SandboxResult((), stopped=reason, stopped_at=0, ms=ms, pid=pid, folder=folder, refused=True)  # fmt: skip


async def run_atoms(
    code: str, calls: list[dict[str, Any]], limits: SandboxLimits = DEFAULT_LIMITS
) -> SandboxResult:
    """Run ``calls`` (``{"atom", "args", "kwargs"}``) on the atoms ``code`` defines, in the
    sandbox: one fork server, one locked-down child per call."""
    started = time.perf_counter()
    lockdown = lockdown_settings()
    if isinstance(lockdown, str):
        return _refused(lockdown, started)
    settings = {
        **lockdown,
        "cpu_seconds": limits.cpu_seconds,
        "memory_bytes": limits.memory_bytes,
        "file_bytes": limits.file_bytes,
        "reply_bytes": limits.output_bytes,
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
            await asyncio.shield(_stop(process))
    run = Run(calls, limits, started, process.pid, folder)
    return run.read(stdout, timed_out, overflow, process.returncode, stderr)


@dataclass(frozen=True, slots=True)
class Run:
    """One finished run of ``calls``: turns the fork server's records into a
    :class:`SandboxResult`."""

    calls: list[dict[str, Any]]
    limits: SandboxLimits
    started: float
    pid: int
    folder: str

    @property
    def ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    def call(self, index: int) -> str:
        if not self.calls:
            return "the atom module"
        first = call_text(self.calls[0])
        return f"loading the code (before {first})" if index < 0 else call_text(self.calls[index])

    def read(
        self, stdout: bytes | bytearray, timed_out: bool = False, overflow: bool = False,
        returncode: int | None = 0, stderr: bytes | bytearray = b"",
    ) -> SandboxResult:  # fmt: skip
        """The run's result from the fork server's output: what it reports, why it stopped,
        or, when any record or reply is not what the protocol says, :data:`UNREADABLE`."""
        try:
            return self._result(read_stream(stdout, overflow or timed_out), timed_out, overflow, returncode, stderr)  # fmt: skip
        except Unreadable:
            log.warning("atom sandbox: the run's report is unreadable")
            return SandboxResult((), stopped=UNREADABLE, stopped_at=0, ms=self.ms, pid=self.pid, folder=self.folder)  # fmt: skip

    def _result(
        self, stream: _Stream, timed_out: bool, overflow: bool, returncode: int | None,
        stderr: bytes | bytearray,
    ) -> SandboxResult:  # fmt: skip
        if stream.started is not None and not -1 <= stream.started < len(self.calls):
            raise Unreadable
        end = stream.end or {}
        if end.get("lockdown_error"):
            return _refused(str(end["lockdown_error"]), self.started, self.pid, self.folder)
        if end.get("load_error"):
            return self._done((), str(end["load_error"]), "")
        load = read_reply(stream.replies[-1]) if -1 in stream.replies else None
        if load is not None and load.get("lockdown_error"):
            return _refused(str(load["lockdown_error"]), self.started, self.pid, self.folder)
        if load is not None and load.get("loaded") is not True:
            return self._done((), str(load.get("load_error", "")) or UNREADABLE, _printed([load]))
        replies = [read_reply(stream.replies[i]) for i in range(len(self.calls)) if i in stream.replies]  # fmt: skip
        outcomes = tuple(read_outcome(reply) for reply in replies)
        printed = _printed([*([load] if load else []), *replies])
        if stream.end is not None and stream.died is None and not overflow and len(outcomes) == len(self.calls):  # fmt: skip
            return self._done(outcomes, "", printed)
        at = stream.started if stream.started is not None else -1
        died = stream.died or {}
        reason = _stop_reason(
            self.call(at), died.get("returncode", returncode), timed_out,
            overflow or died.get("overflow") is True, stderr.decode("utf-8", "replace"), self.limits,
        )  # fmt: skip
        log.info("atom sandbox stopped: %s", reason)
        return SandboxResult(outcomes, stopped=reason, stopped_at=max(at, 0), printed=printed, ms=self.ms, pid=self.pid, folder=self.folder)  # fmt: skip

    def _done(self, outcomes: tuple[CallOutcome, ...], load_error: str, printed: str) -> SandboxResult:  # fmt: skip
        return SandboxResult(outcomes, load_error=load_error, printed=printed, ms=self.ms, pid=self.pid, folder=self.folder)  # fmt: skip
