"""A real PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl start``
on a free loopback port, stopped at the end of the session (one server per xdist worker).

The server runs as an unprivileged user when the tests run as root (``initdb`` refuses root):
``postgres`` if the system has it, else ``nobody``. Where no PostgreSQL binaries are found,
:func:`start_server` returns ``None`` and the tests that need it skip with :data:`SKIP_REASON`.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SKIP_REASON = (
    "PostgreSQL tests skipped: no initdb/pg_ctl found; install the server "
    "(apt-get install postgresql) to run them."
)

SUPERUSER = "weaver"


@dataclass(frozen=True)
class PostgresServer:
    """A running server: connect with :attr:`url` (database ``weaver``, user ``weaver``)."""

    port: int
    folder: Path

    @property
    def url(self) -> str:
        return self.url_for("weaver")

    def url_for(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"


def _binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_as() -> list[str]:
    """The command prefix that runs the server's tools as a user ``initdb`` accepts."""
    if os.geteuid() != 0:
        return []
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"]
    raise RuntimeError("running as root and no unprivileged user to run PostgreSQL as")


def _owner() -> tuple[int, int] | None:
    prefix = _run_as()
    if not prefix:
        return None
    entry = pwd.getpwnam(prefix[2])
    return entry.pw_uid, entry.pw_gid


def _run(command: list[str]) -> None:
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode:
        raise RuntimeError(f"{command[-1]} failed: {done.stderr.decode(errors='replace')}")


_WATCHDOG = """
import os, shutil, subprocess, sys, time
parent, folder, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
while os.path.isdir(folder):
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        subprocess.run([*command, "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
        break
    time.sleep(1)
"""


def _stop_when_gone(parent: int, pg_ctl: list[str], folder: Path) -> None:
    """A watchdog process that stops the server if the test process dies without stopping it
    (killed, say): a shared machine keeps no orphan servers. It ends with the folder."""
    subprocess.Popen(
        [sys.executable, "-c", _WATCHDOG, str(parent), str(folder), *pg_ctl],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@contextlib.contextmanager
def start_server() -> Iterator[PostgresServer | None]:
    """A fresh server for the block (``None`` where PostgreSQL is not installed)."""
    bin_dir = _binaries()
    if bin_dir is None:
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="weaver-pg-"))
    owner = _owner()
    if owner is not None:
        os.chown(folder, *owner)
    data = folder / "data"
    prefix = _run_as()
    _run(
        [
            *prefix,
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ]
    )
    port = _free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=200"
    )
    _run(
        [
            *prefix,
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(folder / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        ]
    )
    server = PostgresServer(port, folder)
    _stop_when_gone(os.getpid(), [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data)], folder)
    try:
        _run(
            [
                *prefix,
                str(bin_dir / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                SUPERUSER,
                "weaver",
            ]
        )
        yield server
    finally:
        subprocess.run(
            [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


_schemas = itertools.count()


def fresh_schema_url(server: PostgresServer) -> str:
    """The URL of a new, empty schema of the server's ``weaver`` database (each test's store
    its own tables, without the cost of a database per test)."""
    import psycopg

    name = f"t{os.getpid()}_{next(_schemas)}"
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"'.encode())
    return f"{server.url}?options=-csearch_path%3D{name}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the worker's whole session; the test skips with one line
    where PostgreSQL is not installed."""
    with start_server() as server:
        if server is None:
            pytest.skip(SKIP_REASON)
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A storage URL naming an empty schema of its own on the session's server."""
    return fresh_schema_url(postgres_server)
