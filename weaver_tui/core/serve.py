"""``weaver-tui serve``: the same app in a web browser, through textual-serve.

textual-serve answers HTTP with a page holding a terminal emulator and starts one app process
per browser session, talking to it over a websocket. The server listens on the loopback
address unless the user names another host, and answers only the browser that opens the one
link it prints (a random token per run; see :mod:`weaver_tui.core.guarded_server`): the app it
starts has the user's keys and files. A wider address is said out loud.
"""

from __future__ import annotations

import errno
import logging
import shlex
import socket
import sys
from collections.abc import Sequence
from typing import TextIO

logger = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


SERVE_MISSING = (
    "serving to a browser needs the optional serve extra: install it with "
    "pip install 'weaver-tui[serve]' (in a clone: .venv/bin/pip install -e '.[serve]')"
)


class ServeError(Exception):
    """Serving cannot start; the message is one sentence for the user."""


def app_command(app_args: Sequence[str]) -> str:
    """The shell command textual-serve runs for each browser session: this Python, this app."""
    return shlex.join([sys.executable, "-m", "weaver_tui", *app_args])


def check_port_free(host: str, port: int) -> None:
    """Raise :class:`ServeError` when ``host:port`` cannot be listened on (taken, or no such host)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"port {port} on {host} is already in use: stop what uses it, or pick "
                    f"another with --port (for example --port {port + 1})"
                ) from None
            raise ServeError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None


def check_address(host: str, port: int, err: TextIO) -> None:
    """Refuse a wildcard or taken address (and a missing serve extra) with
    :class:`ServeError`; say out loud that an address beyond this machine is served."""
    try:
        from weaver_tui.core.guarded_server import WILDCARD_HOSTS
    except ImportError:
        raise ServeError(SERVE_MISSING) from None

    if host in WILDCARD_HOSTS:
        raise ServeError(
            f"serve on a named address (for example --host 127.0.0.1 or this machine's LAN "
            f"address), not {host or 'an empty host'}: the page answers only the address it "
            "was opened at"
        )
    check_port_free(host, port)
    if host not in _LOCAL_HOSTS:
        err.write(
            f"weaver-tui: serving on {host}: anyone who can reach this address can use the app "
            "with your keys and files.\n"
        )


def serve(host: str, port: int, app_args: Sequence[str], err: TextIO) -> int:
    """Serve the app on ``host:port`` until Ctrl+C; returns the exit status."""
    check_address(host, port, err)
    from weaver_tui.core.guarded_server import GuardedServer

    command = app_command(app_args)
    logger.info("serving the app", extra={"host": host, "port": port})
    GuardedServer(command, host=host, port=port).serve()
    return 0
