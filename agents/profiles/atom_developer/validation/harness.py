"""The sandbox's child side: runs atom calls in this process and reports the results as JSON.

Started by :mod:`sandbox` as ``python -I -S -B harness.py SETTINGS`` with an empty environment in
an empty temporary folder; it imports nothing from the repository. Before anything of the atom
runs it lowers its own resource limits, imports the allowlisted modules, reads the request
(``{"code", "calls"}``) from stdin and compiles the code; then it locks itself down
(``lockdown.py``: drops root, no new privileges, a seccomp filter; when that fails the atom is
not run and the last line says why), installs an audit hook that refuses file, process,
network, import and code-building events, executes the atom module once and makes each call.
Before each call it writes a progress line (``{"call": i}``) so the parent knows which call a
hang or a crash belongs to, and after it a line with its result; the last line (``{"end":
true}``) says the run finished. What the atom prints goes to a bounded buffer, never to the
real stdout.
"""

import builtins
import contextlib
import importlib.util
import json
import os
import resource
import sys
import time
from typing import Any

MAX_REPR = 200
MAX_DEPTH = 20
MAX_CAPTURE = 4096
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


def lock_down(settings: dict[str, Any]) -> str:
    """Put the operating-system boundary in place; the reason it failed, or ``""``."""
    try:
        lockdown = load_lockdown()
        lockdown.lock_down(settings["pyseccomp"], settings["libraries"])
    except Exception as exc:  # noqa: BLE001 (any lockdown failure is the sandbox's report)
        return str(exc) if type(exc).__name__ == "LockdownError" else describe(exc)
    return ""


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
        if level or str(name).split(".")[0] not in allowed:
            raise RuntimeError(f"sandbox: import of {name} is not allowed")
        return real_import(name, globals, locals, fromlist, level)

    atom_builtins = dict(vars(builtins))
    atom_builtins["__import__"] = guarded_import
    for name in ("__loader__", "__spec__", "__build_class__"):
        atom_builtins.pop(name, None)
    return {"__name__": "atom", "__builtins__": atom_builtins}


def run_call(namespace: dict[str, Any], index: int, call: dict[str, Any], out: Any) -> None:
    """Make one call and write its progress line and its result line."""
    out.write(json.dumps({"call": index}) + "\n")
    out.flush()
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
    record["result"] = index
    out.write(json.dumps(record) + "\n")
    out.flush()


def main() -> None:
    limits = json.loads(sys.argv[1])
    set_limits(limits)
    allowed = frozenset(limits["allowed_modules"])
    for name in sorted(allowed):
        __import__(name)
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    out = sys.stdout
    try:
        module_code = compile(request["code"], "<atom>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return finish(out, describe(exc), "")
    loaded = frozenset(name for name in sys.modules if name.split(".")[0] in allowed)
    refusal = lock_down(limits)
    if refusal:
        return finish(out, "", "", refusal)
    namespace = atom_namespace(allowed)
    sys.addaudithook(make_hook(loaded))
    sys.stdout = sys.stderr = capture = Capture()
    load_error = ""
    try:
        exec(module_code, namespace)
    except BaseException as exc:  # noqa: BLE001 (atom code may raise anything, SystemExit too)
        load_error = describe(exc)
    for index, call in enumerate(request["calls"] if not load_error else ()):
        run_call(namespace, index, call, out)
    finish(out, load_error, "".join(capture.parts))


def finish(out: Any, load_error: str, printed: str, refusal: str = "") -> None:
    """The last line: the run finished (or was refused before the atom ran)."""
    end = {"end": True, "load_error": load_error, "printed": printed}
    if refusal:
        end["lockdown_error"] = refusal
    out.write(json.dumps(end) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
