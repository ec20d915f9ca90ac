"""``weaver-tui space join URL``: a participant's seat in a terminal, on any machine that
reaches the host.

The link a host sends (``http://HOST:PORT/?seat=TOKEN``) opens the seat in a browser, where
the page relays the seat's app over a websocket (textual-serve's protocol: the app's terminal
output arrives as binary frames, and the page sends ``["stdin", text]`` and
``["resize", {"width", "height"}]``). This verb is that page in a terminal: it opens the same
websocket with the page's own ``Origin``, writes what arrives to this terminal and sends what
is typed, and the terminal's size as it changes. The seat's app still runs at the host, locked
to its participant: nothing here reads the conversation, holds a key or runs a model.

A refused link (revoked, or mistyped) and a host that does not answer are said in one sentence.

The link is the seat: whoever reads it can take the seat. Every user of a machine can read a
process's command line (``/proc/PID/cmdline``), so the link is best pasted at the prompt
(``space join``: read with echo off) or piped in (``space join -``). A link given as an argument
is cleared from the command line as soon as it is read (:func:`hide_link_argument`); it was
readable while the interpreter started, which the help and the README say.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import getpass
import json
import os
import shutil
import signal
import sys
import termios
import tty
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from storage.printable import printable
from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError
from weaver_tui.core.cli.relay_filter import RelayFilter

RESET_TERMINAL = "\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[0m\r\n"
"""Leave the app's screen as it was before (alternate screen, cursor, mouse modes), in case
the seat ended before the app could say so itself."""


@dataclass(frozen=True, slots=True)
class SeatLink:
    """A seat's link: where the host serves it and the seat's token."""

    address: str
    """``host:port`` as the link writes it."""
    token: str

    @property
    def origin(self) -> str:
        return f"http://{self.address}"

    def websocket_url(self, width: int, height: int) -> str:
        return f"ws://{self.address}/ws/{self.token}?width={width}&height={height}"


def parse_link(url: str) -> SeatLink:
    """The seat of ``url``; raises :class:`CliError` saying what a link looks like."""
    parts = urlsplit(url.strip())
    tokens = parse_qs(parts.query).get("seat", [])
    if parts.scheme != "http" or not parts.netloc or len(tokens) != 1 or not tokens[0]:
        raise CliError(
            "that is not a seat's link: pass the whole line the host sent you, "
            "http://HOST:PORT/?seat=...",
            EXIT_CONFIG,
        )
    return SeatLink(parts.netloc, tokens[0])


PROCESS_TITLE = "weaver-tui space join"
"""This process's command line once a link given as an argument is cleared from it."""

LINK_PROMPT = "Paste the line the host sent you (it is not shown): "


def hide_link_argument() -> None:
    """Replace this process's command line (what ``/proc/PID/cmdline`` and ``ps`` show every
    local user) with one that holds no link."""
    import setproctitle

    setproctitle.setproctitle(PROCESS_TITLE)


def read_link(url: str | None) -> str:
    """The link: ``url`` as given, or (``None`` or ``-``) pasted at a prompt that does not
    echo it when standard input is a terminal, else the first line of standard input."""
    if url is not None and url != "-":
        hide_link_argument()
        return url
    if sys.stdin.isatty():
        try:
            return getpass.getpass(LINK_PROMPT)
        except EOFError:
            return ""
    return sys.stdin.readline()


def join_space(url: str | None) -> int:
    """Relay the seat at ``url`` (or the link pasted or piped in) to this terminal until it
    ends."""
    link = parse_link(read_link(url))
    if not sys.stdin.isatty():
        _keys_from_the_terminal()
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("space join needs a terminal: run it in one (or open the link in a browser)")
    return asyncio.run(_join(link))


def _keys_from_the_terminal() -> None:
    """The link was piped in: read keys from the controlling terminal, if there is one."""
    try:
        terminal = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        return
    os.dup2(terminal, sys.stdin.fileno())
    os.close(terminal)


async def _join(link: SeatLink) -> int:
    import websockets
    from websockets.exceptions import InvalidStatus
    from websockets.typing import Origin

    width, height = shutil.get_terminal_size()
    try:
        connection = await websockets.connect(
            link.websocket_url(width, height),
            origin=Origin(link.origin),
            proxy=None,
            max_size=None,
            open_timeout=30,
        )
    except InvalidStatus as exc:
        if exc.response.status_code == 429:
            said = printable(exc.response.body.decode("utf-8", "replace")).strip()
            raise CliError(f"the host refused the seat: {said[:300]}") from None
        if exc.response.status_code == 403:
            raise CliError(
                "the host refused this link: it was revoked or mistyped; ask the host for "
                "your line again"
            ) from None
        raise CliError(
            f"the host answered {exc.response.status_code}: is this a seat's link?"
        ) from None
    except (OSError, TimeoutError) as exc:
        raise CliError(
            f"nothing answers at {link.address} ({exc.__class__.__name__}): is the space still open?"
        ) from None
    async with connection:
        await _relay(connection)
    reason = printable(connection.close_reason or "").strip()[:200]
    sys.stdout.write(f"{reason or 'The seat was closed.'}\n")
    return 0


async def _relay(connection: object) -> None:
    """Screen out, keys in, size as it changes, until the host ends the seat."""
    from websockets.asyncio.client import ClientConnection
    from websockets.exceptions import ConnectionClosed

    assert isinstance(connection, ClientConnection)
    loop = asyncio.get_running_loop()
    stdin, stdout = sys.stdin.fileno(), sys.stdout.buffer
    saved = termios.tcgetattr(stdin)
    outgoing: asyncio.Queue[list[object]] = asyncio.Queue()
    """The page's messages to send, in order: ``["stdin", text]`` and ``["resize", size]``."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    screen = RelayFilter()  # only what a Textual app draws reaches the terminal

    def read_keys() -> None:
        data = os.read(stdin, 4096)
        if data:
            outgoing.put_nowait(["stdin", decoder.decode(data)])

    def resized() -> None:
        size = shutil.get_terminal_size()
        outgoing.put_nowait(["resize", {"width": size.columns, "height": size.lines}])

    async def send_keys() -> None:
        while True:
            await connection.send(json.dumps(await outgoing.get()))

    tty.setraw(stdin)
    loop.add_reader(stdin, read_keys)
    loop.add_signal_handler(signal.SIGWINCH, resized)
    sender = asyncio.create_task(send_keys())
    try:
        async for message in connection:
            if isinstance(message, bytes):
                stdout.write(screen.feed(message))
                stdout.flush()
    except ConnectionClosed:
        pass  # the host stopped or revoked the seat: said below
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
        loop.remove_signal_handler(signal.SIGWINCH)
        loop.remove_reader(stdin)
        termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        stdout.write(RESET_TERMINAL.encode())
        stdout.flush()
