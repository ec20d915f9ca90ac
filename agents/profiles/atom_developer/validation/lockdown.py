"""The sandbox child's operating-system boundary: what holds even when every Python check fails.

Loaded by ``harness.py`` by file path (the fork server runs under ``python -I -S -B`` and
imports nothing from the repository). The server builds the filter once (:func:`prepare`); each
child it forks for one atom call applies it (:func:`apply`) before any atom code runs:

1. as root, the process drops to the unprivileged ``nobody`` user and group (no supplementary
   groups), so it owns no file and no process of anyone else;
2. ``PR_SET_NO_NEW_PRIVS`` is set, so nothing it could still run gains privileges;
3. a seccomp filter is loaded that allows only the system calls a running Python interpreter
   needs to compute and to write to the pipes it inherited (memory, signals, time, ``read``,
   ``write``, ``exit``) and answers every other call with ``EPERM``: no new process or thread
   (``clone``, ``fork``, ``execve``), no file opened or changed (``open``, ``unlink``,
   ``rename``, ``chmod``...), no socket, no signal to another process, no ``ptrace``, no
   ``io_uring``, no namespace or mount. An allowlist, so a system call added to the kernel
   later is refused too; calls from another architecture's table (``int 0x80``) kill the
   process.

The filter is built with pyseccomp over the system's libseccomp; the parent passes the paths of
both, so this module imports only the standard library. When any step fails it raises
:class:`LockdownError` and the harness refuses to run the atom.
"""

import contextlib
import ctypes
import errno
import importlib.util
import os
import sys
import types
from typing import Any

NOBODY = 65534
"""The traditional overflow user and group id (``nobody``/``nogroup``)."""

PR_SET_NO_NEW_PRIVS = 38
ALLOWED_SYSCALLS = (
    "read", "write", "readv", "writev", "lseek", "close", "fstat",
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise",
    "futex", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
    "clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep", "clock_nanosleep",
    "getrusage", "times", "getrandom", "sched_yield",
    "getpid", "gettid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
    "getgroups",
    "exit", "exit_group",
)  # fmt: skip
"""Everything else is refused with EPERM."""


class LockdownError(Exception):
    """The boundary could not be put in place; no atom code may run."""


def load_pyseccomp(module_path: str, libraries: dict[str, str]) -> Any:
    """pyseccomp loaded from ``module_path``, finding libc and libseccomp at ``libraries``.

    pyseccomp asks ``ctypes.util.find_library`` for both libraries, which imports
    ``subprocess`` and runs ``ldconfig`` (some 30 ms); the parent has already found them, so a
    stand-in ``ctypes.util`` answers from ``libraries`` while pyseccomp loads."""
    spec = importlib.util.spec_from_file_location("pyseccomp", module_path)
    if spec is None or spec.loader is None:
        raise LockdownError(f"pyseccomp is not at {module_path}")
    stand_in = types.ModuleType("ctypes.util")
    stand_in.find_library = libraries.get  # type: ignore[attr-defined]
    sys.modules["ctypes.util"] = ctypes.util = stand_in  # type: ignore[attr-defined]
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (OSError, RuntimeError, ImportError, AttributeError) as exc:
        raise LockdownError(f"libseccomp could not be loaded ({exc})") from exc
    finally:
        del sys.modules["ctypes.util"], ctypes.util  # type: ignore[attr-defined]
    return module


def drop_root() -> None:
    """As root: become ``nobody`` with no supplementary groups, for good (all three ids)."""
    if os.geteuid() != 0 and os.getuid() != 0:
        return
    try:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
    except OSError as exc:
        raise LockdownError(f"could not drop root to uid {NOBODY} ({exc.strerror})") from exc
    with contextlib.suppress(OSError):
        os.setuid(0)
    if 0 in (*os.getresuid(), *os.getresgid()) or os.getgroups():
        raise LockdownError("root could not be dropped for good")


def set_no_new_privs() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        code = ctypes.get_errno()
        raise LockdownError(f"PR_SET_NO_NEW_PRIVS failed ({os.strerror(code)})")


def build_filter(seccomp: Any) -> Any:
    """The allowlist filter: EPERM for every system call not in ``ALLOWED_SYSCALLS``."""
    rules = seccomp.SyscallFilter(seccomp.ERRNO(errno.EPERM))
    rules.set_attr(seccomp.Attr.CTL_NNP, 1)
    rules.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    for name in ALLOWED_SYSCALLS:
        with contextlib.suppress(OSError):  # a call this architecture does not have
            rules.add_rule(seccomp.ALLOW, name)
    return rules


def prepare(module_path: str, libraries: dict[str, str]) -> Any:
    """The seccomp filter, built but not loaded (the fork server builds it once, before any
    child exists), or raise :class:`LockdownError`."""
    seccomp = load_pyseccomp(module_path, libraries)
    try:
        return build_filter(seccomp)
    except OSError as exc:
        raise LockdownError(f"the seccomp filter could not be built ({exc})") from exc


def apply(rules: Any) -> None:
    """Drop root, forbid new privileges and load the prepared filter into this process, or
    raise :class:`LockdownError`."""
    drop_root()
    set_no_new_privs()
    try:
        rules.load()
    except OSError as exc:
        raise LockdownError(f"the seccomp filter could not be loaded ({exc.strerror})") from exc


def lock_down(module_path: str, libraries: dict[str, str]) -> None:
    """Drop root, forbid new privileges and load the seccomp filter, or raise
    :class:`LockdownError`."""
    apply(prepare(module_path, libraries))
