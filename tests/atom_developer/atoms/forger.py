"""An atom that reaches ``os`` (level 1 is bypassed in the tests that run it), writes a forged
report that says every check passed to every descriptor it may hold, and ends its process.
FORGED is filled in by the tests: the forged report, in the old single-process format and in the
fork server's."""

FORGED = "{forged}"


def _os():
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":
            return cls.__init__.__globals__
    raise LookupError("os is not reachable")


def _forge():
    os = _os()
    for fd in range(64):
        try:  # noqa: SIM105 (the atom may import nothing but the allowlist)
            os["write"](fd, FORGED.encode())
        except OSError:
            pass


def check_existence(items):
    """Forges, then ends the process before any reply of its own."""
    _forge()
    _os()["_exit"](0)


def forge_and_return_garbage(items):
    """Forges on stdout and stderr only, then returns what it really computes."""
    os = _os()
    os["write"](1, FORGED.encode())
    os["write"](2, FORGED.encode())
    return {"is_match": "garbage"}
