"""The sandbox's fork server: frames the results of atom calls that each run in a child of
their own.

Started by :mod:`sandbox` as ``python -I -S -B harness.py SETTINGS`` with an empty environment in
an empty temporary folder; it imports nothing from the repository. It imports the allowlisted
modules, reads the request (``{"code", "calls"}``) from stdin, compiles the code and builds the
seccomp filter (``lockdown.py``); it never runs any of the atom's code itself. For each step (``-1``
loads the module, then one step per call) it forks a child that

- keeps only a null device on stdin, stdout and stderr and the write end of a pipe of its own on
  fd 3 (every other descriptor, the server's stdout among them, is closed);
- lowers its resource limits, drops root, forbids new privileges and loads the filter, installs
  an audit hook, executes the atom module and makes its one call;
- writes one reply to fd 3: an 8-byte big-endian length, then that many bytes of JSON.

The server reads at most ``reply_bytes`` of that reply, kills and reaps the child, and writes
its own record of the step to stdout, one JSON line each: ``{"start": i}`` before the fork,
``{"reply": i, "payload": TEXT}`` with the child's reply as an opaque string, or ``{"died": i,
"returncode": N, "overflow": BOOL}`` when the child gave no whole reply (the run ends there);
the last line is ``{"end": true}``. An atom can write only to its own call's reply pipe, so what
it can forge is its own call's value: no more than returning it.
"""

import builtins
import contextlib
import importlib.util
import json
import os
import resource
import signal
import struct
import sys
import time
from typing import Any

MAX_REPR = 200
MAX_DEPTH = 20
MAX_CAPTURE = 4096
REPLY_FD = 3
PRELOADED = ("_strptime",)
"""Modules the allowlisted ones import lazily (``datetime.strptime``), imported before any
child exists."""
REFUSED_PREFIXES = (
    "os.", "subprocess.", "socket.", "ctypes.", "shutil.", "pty.", "fcntl.", "mmap.",
    "resource.", "signal.", "marshal.", "pickle.", "_posixsubprocess.", "winreg.", "syslog.",
    "sqlite3.", "urllib.", "http.", "ftplib.", "smtplib.", "webbrowser.", "glob.", "tempfile.",
)  # fmt: skip
REFUSED_EVENTS = frozenset(
    {"open", "sys._getframe", "sys.settrace", "sys.setprofile", "code.__new__"}
    | {"function.__new__", "builtins.input", "compile", "object.__getattr__"}
    | {"sys.addaudithook", "sys._current_frames", "cpython.run_command", "gc.get_referrers"}
)


def load_lockdown() -> Any:
    """``lockdown.py`` beside this file, loaded by path (the repository is not importable)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lockdown.py")
    spec = importlib.util.spec_from_file_location("atom_lockdown", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"lockdown.py is missing at {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def import_allowed(args: tuple[Any, ...], loaded: frozenset[str]) -> bool:
    """Whether an ``import`` audit event may go on. Everything the atom may import was
    imported before it ran, so an event that names a file (an extension module loaded
    through ``_imp.create_dynamic``, whose name is the caller's choice) is refused, and
    otherwise the full dotted name must be one of the modules imported then."""
    filename = args[1] if len(args) > 1 else None
    return filename is None and str(args[0]) in loaded


def set_limits(limits: dict[str, Any]) -> None:
    """Lower this process's limits; the ones the system will not lower are left as they are."""
    wanted = {
        resource.RLIMIT_CPU: (limits["cpu_seconds"], limits["cpu_seconds"] + 1),
        resource.RLIMIT_AS: (limits["memory_bytes"], limits["memory_bytes"]),
        resource.RLIMIT_FSIZE: (limits["file_bytes"], limits["file_bytes"]),
        resource.RLIMIT_NPROC: (0, 0),
        resource.RLIMIT_NOFILE: (16, 16),
        resource.RLIMIT_CORE: (0, 0),
    }
    for which, (soft, hard) in wanted.items():
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(which, (soft, hard))


class Capture:
    """A stand-in for stdout and stderr that keeps the first few KiB of what is written."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: object) -> int:
        text = str(text)
        if self.size < MAX_CAPTURE:
            self.parts.append(text[: MAX_CAPTURE - self.size])
        self.size += len(text)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


def encode(value: Any, depth: int = 0) -> dict[str, Any]:
    """``value`` as type-tagged JSON data; anything but plain data is its type name and repr."""
    kind = type(value)
    if value is None or kind in (bool, float, str):
        return {"type": kind.__name__ if value is not None else "None", "value": value}
    if kind is int:
        try:
            return {"type": "int", "value": value} if abs(value) < 2**63 else opaque(value)
        except Exception:  # noqa: BLE001 (an int subclass from atom code may raise anything)
            return opaque(value)
    if depth >= MAX_DEPTH:
        return {"type": kind.__name__, "repr": "(nested too deeply)"}
    if kind is list:
        return {"type": "list", "items": [encode(item, depth + 1) for item in value]}
    if kind is dict:
        return {
            "type": "dict",
            "items": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()],
        }
    return opaque(value)


def opaque(value: Any) -> dict[str, Any]:
    try:
        text = repr(value)[:MAX_REPR]
    except Exception as exc:  # noqa: BLE001 (atom code's repr may raise anything)
        text = f"(repr failed: {type(exc).__name__})"
    return {"type": type(value).__name__, "repr": text}


def describe(exc: BaseException) -> str:
    try:
        message = str(exc)[:MAX_REPR]
    except Exception:  # noqa: BLE001 (atom code's exception may fail to print)
        message = "(no message)"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def make_hook(loaded: frozenset[str]) -> Any:
    """The audit hook: one ``exec`` (the atom module), imports of what was loaded, no refused
    event. A layer over the seccomp filter, not the boundary: it reads its rules from this
    module's globals, which code that reaches them can change."""
    state = {"execs": 0}

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "exec":
            state["execs"] += 1
            if state["execs"] > 1:
                raise RuntimeError("sandbox: exec is not allowed")
        elif event == "import":
            if not import_allowed(args, loaded):
                raise RuntimeError(f"sandbox: import of {args[0]} is not allowed")
        elif event in REFUSED_EVENTS or event.startswith(REFUSED_PREFIXES):
            raise RuntimeError(f"sandbox: {event} is not allowed")

    return hook


def atom_namespace(allowed: frozenset[str]) -> dict[str, Any]:
    """The atom module's globals: builtins whose ``__import__`` takes only the allowlist."""
    real_import = builtins.__import__

    def guarded_import(
        name: str,
        globals: Any = None,
        locals: Any = None,
        fromlist: Any = (),
        level: int = 0,
    ) -> Any:
        if level or (str(name).split(".")[0] not in allowed and name not in PRELOADED):
            raise RuntimeError(f"sandbox: import of {name} is not allowed")
        return real_import(name, globals, locals, fromlist, level)

    atom_builtins = dict(vars(builtins))
    atom_builtins["__import__"] = guarded_import
    for name in ("__loader__", "__spec__", "__build_class__"):
        atom_builtins.pop(name, None)
    return {"__name__": "atom", "__builtins__": atom_builtins}


def step_reply(call: Any, module_code: Any, settings: dict[str, Any], lock: Any) -> dict[str, Any]:
    """In the child, locked down: load the atom module and, for a call step, make the call."""
    allowed = frozenset(settings["allowed_modules"])
    loaded = frozenset(name for name in sys.modules if name.split(".")[0] in allowed)
    set_limits(settings)
    try:
        lock()
    except Exception as exc:  # noqa: BLE001 (any lockdown failure is the sandbox's report)
        return {"lockdown_error": str(exc) if type(exc).__name__ == "LockdownError" else describe(exc)}  # fmt: skip
    namespace = atom_namespace(allowed)
    sys.addaudithook(make_hook(loaded))
    sys.stdout = sys.stderr = capture = Capture()
    try:
        exec(module_code, namespace)
    except BaseException as exc:  # noqa: BLE001 (atom code may raise anything, SystemExit too)
        return {"loaded": False, "load_error": describe(exc), "printed": capture.text()}
    if call is None:
        return {"loaded": True, "printed": capture.text()}
    record = run_call(namespace, call)
    record["printed"] = capture.text()
    return record


def run_call(namespace: dict[str, Any], call: dict[str, Any]) -> dict[str, Any]:
    """Make one call; its result, and its arguments as they are afterwards."""
    function = namespace.get(call["atom"])
    args, kwargs = call.get("args", []), call.get("kwargs", {})
    started = time.perf_counter()
    try:
        if not callable(function):
            raise NameError(f"{call['atom']} is not defined")
        value = function(*args, **kwargs)
        record = {"ok": True, "value": encode(value)}
    except BaseException as exc:  # noqa: BLE001 (atom code may raise anything, SystemExit too)
        record = {"ok": False, "error": describe(exc)}
    record["ms"] = (time.perf_counter() - started) * 1000
    try:
        record["args"] = [encode(a) for a in args]
        record["kwargs"] = {k: encode(v) for k, v in kwargs.items()}
    except BaseException as exc:  # noqa: BLE001 (atom values may fail to encode in any way)
        record["args_error"] = describe(exc)
    return record


def send_reply(record: dict[str, Any]) -> None:
    """The child's one reply on fd 3: its length, then its JSON."""
    try:
        data = json.dumps(record).encode("utf-8")
    except BaseException as exc:  # noqa: BLE001 (a value may fail to serialise in any way)
        data = json.dumps({"ok": False, "error": describe(exc)}).encode("utf-8")
    data = struct.pack(">Q", len(data)) + data
    while data:
        data = data[os.write(REPLY_FD, data) :]


def child(call: Any, module_code: Any, settings: dict[str, Any], lock: Any, pipe: int, null: int) -> None:  # fmt: skip
    """The forked child: never returns into the server's loop, whatever the atom does."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.dup2(pipe, REPLY_FD)
        os.closerange(REPLY_FD + 1, 1 << 16)
        send_reply(step_reply(call, module_code, settings, lock))
    finally:
        os._exit(0)


def read_exactly(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes from ``fd``; fewer only when the writer closed it first."""
    parts, got = [], 0
    while got < size:
        chunk = os.read(fd, min(size - got, 1 << 16))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def run_step(index: int, call: Any, module_code: Any, settings: dict[str, Any], lock: Any, null: int, out: Any) -> str | None:  # fmt: skip
    """Fork the child of one step, read its reply and write the step's record; the reply's
    text, or ``None`` when the child gave none (the run ends)."""
    emit(out, {"start": index})
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        child(call, module_code, settings, lock, write_end, null)
    RUNNING["pid"] = pid
    os.close(write_end)
    try:
        header = read_exactly(read_end, 8)
        size = struct.unpack(">Q", header)[0] if len(header) == 8 else -1
        overflow = size > settings["reply_bytes"]
        payload = read_exactly(read_end, size) if size >= 0 and not overflow else b""
    finally:
        os.close(read_end)
    whole = 0 <= size == len(payload) and not overflow
    if whole or overflow:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    returncode = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    RUNNING["pid"] = 0
    if not whole:
        emit(out, {"died": index, "returncode": returncode, "overflow": overflow})
        return None
    text = payload.decode("utf-8", "replace")
    emit(out, {"reply": index, "payload": text})
    return text


def loaded(reply: str) -> bool:
    """Whether the load step's reply says the module loaded (then the calls run)."""
    try:
        record = json.loads(reply)
    except Exception:  # noqa: BLE001 (the reply is the child's text: anything may be in it)
        return False
    return isinstance(record, dict) and record.get("loaded") is True


def emit(out: Any, record: dict[str, Any]) -> None:
    out.write(json.dumps(record) + "\n")
    out.flush()


RUNNING = {"pid": 0}
"""The child the server is waiting for (0: none)."""


def on_terminate(signum: int, frame: Any) -> None:
    """Asked to stop (the run's time is up): kill and reap the running child, then exit."""
    pid = RUNNING["pid"]
    if pid:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    os._exit(1)


def main() -> None:
    signal.signal(signal.SIGTERM, on_terminate)
    settings = json.loads(sys.argv[1])
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name in sorted(settings["allowed_modules"]) + list(PRELOADED):
        __import__(name)
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    out = sys.stdout
    try:
        module_code = compile(request["code"], "<atom>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return emit(out, {"end": True, "load_error": describe(exc)})
    try:
        lockdown = load_lockdown()
        rules = lockdown.prepare(settings["pyseccomp"], settings["libraries"])
    except Exception as exc:  # noqa: BLE001 (any lockdown failure is the sandbox's report)
        refusal = str(exc) if type(exc).__name__ == "LockdownError" else describe(exc)
        return emit(out, {"end": True, "lockdown_error": refusal})
    null = os.open(os.devnull, os.O_RDWR)
    steps = [(-1, None), *enumerate(request["calls"])]
    for index, call in steps:
        reply = run_step(
            index, call, module_code, settings, lambda: lockdown.apply(rules), null, out
        )
        if reply is None or (index == -1 and not loaded(reply)):
            break
    emit(out, {"end": True})


if __name__ == "__main__":
    main()
