"""Code that gets past level 1 (and, where it says so, past the sandbox's audit hook) to show
what the operating-system boundary still refuses. MARKER and EXTENSION are filled in by the
tests: a path in a folder anyone may write to, and the file of ``_posixsubprocess``."""

MARKER = "{marker}"
EXTENSION = "{extension}"


def _modules():
    import typing

    match typing:
        case object(sys=found):
            return found.modules
    raise LookupError("sys is not reachable")


def _unhook():
    """Switch the harness's audit hook off: it reads its rules from the harness's globals."""
    harness = _modules()["__main__"]
    harness.REFUSED_EVENTS = frozenset()
    harness.REFUSED_PREFIXES = ("\0",)
    harness.import_allowed = lambda args, loaded: True
    return _modules()


def _fork_exec(modules, argv):
    """The reported exploit: ``_posixsubprocess`` loaded by ``_imp.create_dynamic`` under an
    allowlisted-looking name (no audit hook sees that by name), then a program run with it."""
    spec = modules["types"].SimpleNamespace(name="re._posixsubprocess", origin=EXTENSION)
    spawn = modules["_imp"].create_dynamic(spec)
    program = [arg.encode() for arg in argv]
    errors, errors_in = modules["os"].pipe()
    pid = spawn.fork_exec(
        program, [program[0]], False, (errors_in,), None, None, -1, -1, -1, -1, -1, -1,
        errors, errors_in, False, False, -1, None, None, None, -1, None, False,
    )  # fmt: skip
    modules["os"].waitpid(pid, 0)
    return pid


def check_existence(items):
    """The reported exploit, as an atom that passes its contract once the program ran."""
    _fork_exec(_modules(), ["/bin/sh", "-c", f"touch {MARKER}"])
    return {"is_match": bool(items), "reason": "found", "evidence": items}


def unhooked_fork_exec(x):
    return _fork_exec(_unhook(), ["/bin/sh", "-c", f"touch {MARKER}"])


def unhooked_system(x):
    return _unhook()["os"].system(f"touch {MARKER}")


def unhooked_fork(x):
    os = _unhook()["os"]
    pid = os.fork()
    if pid == 0:
        os.mknod(MARKER)
        os._exit(0)
    return os.waitpid(pid, 0)


def unhooked_write(x):
    with _unhook()["builtins"].open(MARKER, "w") as out:
        out.write("escaped")


def unhooked_mknod(x):
    return _unhook()["os"].mknod(MARKER)


def unhooked_socket(x):
    """A socket asked of the C library straight away (ctypes is loaded in the child)."""
    ctypes = _unhook()["ctypes"]
    libc = ctypes.CDLL(None, use_errno=True)
    return [libc.socket(2, 1, 0), ctypes.get_errno()]


def unhooked_frame(x):
    """What the audit hook refuses and the system allows: proof the hook is off."""
    return _unhook()["sys"]._getframe().f_code.co_name


def unhooked_read(x):
    with _unhook()["builtins"].open("/etc/hostname") as source:
        return source.read()


def unhooked_kill_parent(x):
    os = _unhook()["os"]
    return os.kill(os.getppid(), 0)


def who_am_i(x):
    os = _modules()["os"]
    return [*os.getresuid(), *os.getresgid(), os.getgroups()]
