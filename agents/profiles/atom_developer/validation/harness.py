"""The sandbox's child side: runs atom calls in this process and reports the results as JSON.

Started by :mod:`sandbox` as ``python -I -S -B harness.py LIMITS`` with an empty environment in
an empty temporary folder; it imports nothing from the repository. Before anything of the atom
runs it lowers its own resource limits, imports the allowlisted modules, reads the request
(``{"code", "calls"}``) from stdin and compiles the code; then it installs an audit hook that
refuses file, process, network, import and code-building events, executes the atom module once
and makes each call. Before each call it writes a progress line (``{"call": i}``) so the parent
knows which call a hang or a crash belongs to, and after it a line with its result; the last
line (``{"end": true}``) says the run finished. What the atom
prints goes to a bounded buffer, never to the real stdout.
"""

import builtins
import contextlib
import json
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
        except Exception:
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
    except Exception as exc:
        text = f"(repr failed: {type(exc).__name__})"
    return {"type": type(value).__name__, "repr": text}


def describe(exc: BaseException) -> str:
    try:
        message = str(exc)[:MAX_REPR]
    except Exception:
        message = "(no message)"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def main() -> None:
    limits = json.loads(sys.argv[1])
    set_limits(limits)
    allowed = frozenset(limits["allowed_modules"])
    for name in sorted(allowed):
        __import__(name)
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    module_code = compile(request["code"], "<atom>", "exec")
    out = sys.stdout
    capture = Capture()
    real_import = builtins.__import__
    state = {"execs": 0}

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "exec":
            state["execs"] += 1
            if state["execs"] > 1:
                raise RuntimeError("sandbox: exec is not allowed")
        elif event == "import":
            if str(args[0]).split(".")[0] not in allowed:
                raise RuntimeError(f"sandbox: import of {args[0]} is not allowed")
        elif event in REFUSED_EVENTS or event.startswith(REFUSED_PREFIXES):
            raise RuntimeError(f"sandbox: {event} is not allowed")

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
    namespace = {"__name__": "atom", "__builtins__": atom_builtins}
    sys.addaudithook(hook)
    sys.stdout = sys.stderr = capture
    load_error = ""
    try:
        exec(module_code, namespace)
    except BaseException as exc:
        load_error = describe(exc)
    for index, call in enumerate(request["calls"] if not load_error else ()):
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
        except BaseException as exc:
            record = {"ok": False, "error": describe(exc)}
        record["ms"] = (time.perf_counter() - started) * 1000
        try:
            record["args"] = [encode(a) for a in args]
            record["kwargs"] = {k: encode(v) for k, v in kwargs.items()}
        except BaseException as exc:
            record["args_error"] = describe(exc)
        record["result"] = index
        out.write(json.dumps(record) + "\n")
        out.flush()
    printed = "".join(capture.parts)
    out.write(json.dumps({"end": True, "load_error": load_error, "printed": printed}) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
