"""A textual-serve server that only the person holding its link can drive.

textual-serve alone answers any page that reaches the port: a web page in the user's browser
(any ``Origin``) or a DNS-rebound host name (any ``Host``) could start the app and use the
user's files and keys. :class:`GuardedServer` answers only when

- the ``Host`` header names the served address (or ``localhost`` when that is a loopback
  address), on every route;
- the page is asked for with the per-run token (``/?token=...``), and the websocket's path
  carries it (``/ws/<token>``: textual-serve's page script appends ``?width=...`` to the
  websocket URL, so the token cannot ride in its query);
- a websocket's ``Origin``, when the client sends one (browsers always do), is the served
  page's own.

Anything else gets 403 with one sentence. Static assets and downloads (whose keys are random)
need no token. The page is this package's own template: it loads nothing from another host.
Apps started per connection get only the environment variables the app reads
(:mod:`weaver_tui.core.served_app`). The token never reaches a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import secrets
import signal
import sys
from html import escape
from pathlib import Path
from string import Template
from typing import TextIO

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from weaver_tui.core.logs import JsonLinesFormatter, ScrubFilter, SecretScrubber
from weaver_tui.core.page_messages import page_message
from weaver_tui.core.served_app import ScopedAppService

logger = logging.getLogger(__name__)

PAGE_TEMPLATE = Path(__file__).with_name("serve_page.html")
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_with_port(host: str, port: int) -> str:
    """``host:port`` as a URL or a ``Host`` header writes it (IPv6 in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` header values a request to ``host:port`` may carry (lower case)."""
    names = {host.lower(), "localhost"} if is_loopback(host) else {host.lower()}
    values = {host_with_port(name, port) for name in names}
    if port == 80:
        values |= {f"[{name}]" if ":" in name else name for name in names}
    return frozenset(values)


class GuardedServer(Server):
    """Serves ``command`` to the browser that holds the token; see the module docstring.

    A subclass that serves several people overrides :meth:`command_for` (a token per seat,
    each with its own command) and :meth:`announce`, and may name the page's token parameter
    (:attr:`token_parameter`).
    """

    token_parameter = "token"
    """The page's query parameter that carries the token (``/?token=...``)."""
    app_service: type[ScopedAppService] = ScopedAppService
    """The process a connection's app runs in."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        token: str | None = None,
        title: str = "weaver-tui",
        out: TextIO | None = None,
    ) -> None:
        if host in WILDCARD_HOSTS:
            raise ValueError("a guarded server needs a named address, not a wildcard")
        self.served_address = host_with_port(host, port)
        super().__init__(
            command, host=host, port=port, title=title, public_url=f"http://{self.served_address}"
        )
        self.token = token or secrets.token_urlsafe(32)
        self.allowed_hosts = allowed_hosts(host, port)
        self.allowed_origins = frozenset(f"http://{value}" for value in self.allowed_hosts)
        self.out = out or sys.stdout
        self._sessions: set[web.WebSocketResponse] = set()

    def command_for(self, token: str) -> str | None:
        """The app command a connection holding ``token`` runs, or None for a wrong token."""
        return self.command if tokens_match(token, self.token) else None

    def url_for(self, token: str) -> str:
        """The link that opens the page for ``token``."""
        return f"http://{self.served_address}/?{self.token_parameter}={token}"

    def announce(self) -> None:
        """Say where to point the browser: one line, the only URL shown."""
        self.out.write(self.url_for(self.token) + "\n")
        self.out.flush()

    def host_allowed(self, host: str | None) -> bool:
        return host is not None and host.lower() in self.allowed_hosts

    def origin_allowed(self, origin: str | None) -> bool:
        """A client that sends no ``Origin`` is no browser page; one that does must be ours."""
        return origin is None or origin.lower() in self.allowed_origins

    def initialize_logging(self) -> None:
        """Warnings and errors as JSON lines on stderr, with the token scrubbed from them."""
        scrubber = SecretScrubber([self.token])
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLinesFormatter(scrubber=scrubber))
        handler.addFilter(ScrubFilter(scrubber))
        root = logging.getLogger()
        root.addHandler(handler)
        root.setLevel(logging.DEBUG if self.debug else logging.WARNING)

    def serve(self, debug: bool = False) -> None:
        """Serve until SIGINT or SIGTERM."""
        self.debug = debug
        self.initialize_logging()
        asyncio.run(self._serve_until_signal())

    async def _serve_until_signal(self) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, stop.set)
        await self.serve_until(stop)

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Listen, announce the link once listening, and serve until ``stop`` is set."""
        # No access log: every request line of the page and the websocket holds the token.
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
            self.announce()
            await stop.wait()
        finally:
            await runner.cleanup()

    async def _make_app(self) -> web.Application:
        @web.middleware
        async def check_host(request: web.Request, handler: Handler) -> web.StreamResponse:
            return await self._check_host(request, handler)

        app = web.Application(middlewares=[check_host])
        app.on_shutdown.append(self._end_sessions)
        app.add_routes(
            [
                web.get("/", self.handle_page, name="index"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        return app

    async def _check_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host")
        if not self.host_allowed(host):
            logger.warning("refused a request for another host", extra={"host": host})
            return forbidden("This server answers only at the address weaver-tui serve printed.")
        return await handler(request)

    async def handle_page(self, request: web.Request) -> web.Response:
        """The page, for the token's holder: a terminal wired to ``/ws/<token>``."""
        token = request.query.get(self.token_parameter, "")
        if self.command_for(token) is None:
            logger.warning("refused the page: no valid token")
            return forbidden("Open the link weaver-tui serve printed: it carries the token.")
        page = Template(PAGE_TEMPLATE.read_text(encoding="utf-8")).substitute(
            title=escape(self.title),
            font_size=to_int(request.query.get("fontsize", "16"), 16),
            websocket_url=escape(f"ws://{request.headers['Host']}/ws/{token}"),
        )
        return web.Response(
            text=page,
            content_type="text/html",
            headers={
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
                "Content-Security-Policy": "frame-ancestors 'none'",
            },
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Start the token's app and relay it over the websocket (as textual-serve does)."""
        command = self.command_for(request.match_info["token"])
        if command is None:
            logger.warning("refused a websocket: no valid token")
            raise forbidden_error("Open the link weaver-tui serve printed: it carries the token.")
        origin = request.headers.get("Origin")
        if not self.origin_allowed(origin):
            logger.warning("refused a websocket from another page", extra={"origin": origin})
            raise forbidden_error("Only the page weaver-tui serve printed may open the app.")
        return await self._run_session(request, command)

    async def _run_session(self, request: web.Request, command: str) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        await websocket.prepare(request)
        if not await self._may_start(websocket):
            return websocket
        self._sessions.add(websocket)

        async def close() -> None:
            await websocket.close()

        service = self.app_service(
            # exec: the shell becomes the app, so stopping the process stops the app.
            f"exec {command}",
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception:
            logger.exception("a browser session failed")
        finally:
            self._sessions.discard(websocket)
            await service.stop()
        return websocket

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """Relay the page's messages to its app; only those :func:`page_message` allows. A
        frame of any other kind closes the session with one sentence (no traceback)."""
        async for frame in websocket:
            if frame.type != WSMsgType.TEXT:
                continue
            message = page_message(frame.data)
            if message is None:
                logger.warning("closed a session whose page sent a message pages never send")
                await websocket.close(
                    code=WSCloseCode.UNSUPPORTED_DATA,
                    message=b"The page sent a message this server does not take.",
                )
                return
            if message.kind == "stdin":
                await app_service.send_bytes(message.text.encode("utf-8"))
            elif message.kind == "resize":
                await app_service.set_terminal_size(message.width, message.height)  # type: ignore[arg-type]
            elif message.kind == "ping":
                await websocket.send_json(["pong", message.text])
            elif message.kind == "blur":
                await app_service.blur()
            else:
                await app_service.focus()

    async def _may_start(self, websocket: web.WebSocketResponse) -> bool:
        """Whether the app of a connection whose websocket is now open may start; a subclass
        that says no has closed ``websocket`` with its reason."""
        return True

    async def _end_sessions(self, _app: web.Application) -> None:
        """The server is stopping: tell every connected page so and end its session (its app
        is stopped as the session ends). aiohttp would otherwise give a session that is
        still connected a minute to end by itself before the server could stop."""
        for websocket in list(self._sessions):
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"The server stopped.")


def tokens_match(given: str, expected: str) -> bool:
    """Constant-time comparison that also takes any text a URL may carry."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def forbidden(sentence: str) -> web.Response:
    return web.Response(status=403, text=sentence + "\n")


def forbidden_error(sentence: str) -> web.HTTPForbidden:
    return web.HTTPForbidden(text=sentence + "\n")
