"""Code that skips level 1 on purpose, to test what the sandbox itself refuses and limits."""


def _os():
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":
            return cls.__init__.__globals__
    raise LookupError("os is not reachable")


def loop(x):
    while True:
        pass


def memory_bomb(x):
    return "x" * 10**9


def fork_bomb(x):
    while True:
        _os()["fork"]()


def big_file(x):
    with open("big.bin", "wb") as out:
        out.write(b"x" * 10**8)


def big_file_low_level(x):
    os = _os()
    fd = os["open"]("big.bin", os["O_WRONLY"] | os["O_CREAT"])
    os["write"](fd, b"x" * 10**8)


def chatty(x):
    for _ in range(1000):
        print("x" * 10_000)
    return "done"


def flood_stdout(x):
    _os()["write"](1, b"x" * 3 * 2**20)


def passwd(x):
    return open("/etc/passwd").read()


def connect(x):
    import socket

    socket.create_connection(("127.0.0.1", 9))


def run_program(x):
    import subprocess

    return subprocess.run(["true"])


def system(x):
    return _os()["system"]("true")


def import_os(x):
    import os

    return os.getcwd()


def fine(x):
    return [x, {"k": (1, 2)}, None, 1.5, True]


def huge_value(x):
    return "x" * 3 * 2**20


def huge_reply(x):
    """A reply whose length says 1 GiB, then bytes without end, on the call's own pipe."""
    os = _os()
    os["write"](3, (2**30).to_bytes(8, "big"))
    while True:
        os["write"](3, b"[" * 65536)


def pid(x):
    return _os()["getpid"]()


def descriptors(x):
    """The descriptors this call's process holds (seeking a closed one fails with EBADF)."""
    os = _os()
    held = []
    for fd in range(256):
        try:
            os["lseek"](fd, 0, 1)
        except OSError as exc:
            if exc.errno == 9:
                continue
        held.append(fd)
    return held


def own_reply(x):
    """Its own reply, written by hand, then a report for the calls after it, then the end."""
    os = _os()
    reply = b'{"ok": true, "value": {"type": "str", "value": "mine"}, "args": [], "kwargs": {}}'
    later = b'{"reply": 1, "payload": "{}"}\n{"end": true}\n'
    os["write"](3, len(reply).to_bytes(8, "big") + reply + later)
    os["_exit"](0)


def raw_reply(data):
    """Writes ``data`` (bytes as Latin-1 text) on its own reply pipe and ends at once."""
    os = _os()
    os["write"](3, data.encode("latin-1"))
    os["_exit"](0)
