"""The guarded server of a shared space: one link per participant, each opening their seat.

Every guard of :class:`~weaver_tui.core.guarded_server.GuardedServer` holds for every seat (the
``Host`` header, the websocket's ``Origin``, the token in the websocket's path, no cookie); a
seat's token is its link's serve token (``/?seat=TOKEN``). A token opens a page only while the
store holds it as a valid seat of this space: an unknown or revoked one gets 403, and a seat
revoked while connected (``weaver-tui space close``) is disconnected within
:data:`REVOKE_CHECK_S`. The app a seat's connection starts is given only its participant's
name, the conversation and the data folder, and none of the provider variables: it runs no
model. The host's own work (answering the seats' messages) runs beside the server, in this
process. No token reaches a log line.

Connections are admitted by one :class:`~weaver_tui.core.seat_registry.SeatRegistry`: one live app
per seat (a new connection to a held seat takes it over: the old one is told so in its close
frame, and its app has stopped before the new one starts), and caps on connections per address
and on seats with an app per space (a connection past a cap gets HTTP 429 with one sentence,
and a warning is logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import sys
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from aiohttp import web

from storage.seats import Seat
from weaver_tui.core.guarded_server import GuardedServer
from weaver_tui.core.logs import JsonLinesFormatter, ScrubFilter, SecretScrubber
from weaver_tui.core.seat_registry import SeatLimits, SeatRefused, SeatRegistry
from weaver_tui.core.served_app import ScopedAppService, provider_variables

if TYPE_CHECKING:
    from storage.backend import AnySeatBook

logger = logging.getLogger(__name__)

REVOKE_CHECK_S = 1.0
"""How often a connected seat's token is checked again (a revoked seat is disconnected)."""

TAKEN_OVER_CODE = 4000
"""The close code of a connection whose seat was opened again elsewhere."""
TAKEN_OVER = "This seat was opened in another window, so this one was closed."


@dataclass(eq=False)
class SeatConnection:
    """One connection to a seat, as the registry holds it."""

    previous: SeatConnection | None = None
    """The connection this one took the seat from: its app stops before this one starts."""
    websocket: web.WebSocketResponse | None = None
    taken_over: bool = False
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the connection's app has stopped."""


_CURRENT: contextvars.ContextVar[SeatConnection] = contextvars.ContextVar("seat_connection")

_KEY_VARIABLES = frozenset({"WEAVER_API_KEY", "WEAVER_BASE_URL", "WEAVER_CONFIG"})


def seat_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` without any provider's key or base URL, nor weaver's own: a seat has none."""
    dropped = provider_variables() | _KEY_VARIABLES
    return {k: v for k, v in environ.items() if k not in dropped}


class SeatAppService(ScopedAppService):
    """The app of one seat: the scoped environment, less every key."""

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return seat_environment(super()._build_environment(width=width, height=height))


class SpaceServer(GuardedServer):
    """Serves the seats of one space (``conversation_id``); ``seat_command`` is the app
    command of a seat, ``host_work`` what the host runs beside the server until it stops."""

    token_parameter = "seat"
    app_service = SeatAppService

    def __init__(
        self,
        seats: AnySeatBook,
        conversation_id: str,
        seat_command: Callable[[Seat], str],
        *,
        host: str,
        port: int,
        host_work: Callable[[asyncio.Event], Coroutine[Any, Any, None]] | None = None,
        out: TextIO | None = None,
        limits: SeatLimits | None = None,
    ) -> None:
        super().__init__("", host=host, port=port, title="weaver-tui shared space", out=out)
        self.registry: SeatRegistry[SeatConnection] = SeatRegistry(limits or SeatLimits())
        self._closing: set[asyncio.Task[object]] = set()
        self.seats = seats
        self.conversation_id = conversation_id
        self.seat_command = seat_command
        self.host_work = host_work

    def seat_for(self, token: str) -> Seat | None:
        seat = self.seats.seat_for(token)
        return seat if seat is not None and seat.conversation_id == self.conversation_id else None

    def command_for(self, token: str) -> str | None:
        seat = self.seat_for(token)
        return None if seat is None else self.seat_command(seat)

    def announce(self) -> None:
        """``NAME: URL``, one line per seat."""
        for seat in self.seats.seats(self.conversation_id):
            self.out.write(f"{seat.participant}: {self.url_for(seat.token)}\n")
        self.out.flush()

    def initialize_logging(self) -> None:
        scrubber = SecretScrubber([seat.token for seat in self.seats.seats(self.conversation_id)])
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLinesFormatter(scrubber=scrubber))
        handler.addFilter(ScrubFilter(scrubber))
        root = logging.getLogger()
        root.addHandler(handler)
        root.setLevel(logging.DEBUG if self.debug else logging.WARNING)

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Serve, with the host's work beside the server; a crash of either stops both."""
        self.seats.forget_connections(self.conversation_id)
        if self.host_work is None:
            await super().serve_until(stop)
            return
        work = asyncio.create_task(self.host_work(stop))
        work.add_done_callback(lambda _: stop.set())
        try:
            await super().serve_until(stop)
        finally:
            stop.set()
            with contextlib.suppress(asyncio.CancelledError):
                await work

    async def _run_session(self, request: web.Request, command: str) -> web.WebSocketResponse:
        token = request.match_info["token"]
        connection = SeatConnection()
        try:
            connection.previous = self.registry.admit(token, request.remote or "", connection)
        except SeatRefused as exc:
            logger.warning("refused a seat connection over a cap", extra={"reason": str(exc)})
            raise web.HTTPTooManyRequests(text=f"{exc}\n") from None
        if connection.previous is not None:
            self._take_over(connection.previous)
        _CURRENT.set(connection)
        self.seats.connected(token, +1)
        session = asyncio.current_task()
        watch = asyncio.create_task(self._end_when_revoked(token, session))
        try:
            return await super()._run_session(request, command)
        finally:
            watch.cancel()
            self.seats.connected(token, -1)
            self.registry.release(connection)
            connection.ended.set()

    def _take_over(self, previous: SeatConnection) -> None:
        """Tell ``previous`` its seat was opened elsewhere and end it (its app stops)."""
        previous.taken_over = True
        logger.warning("a seat was opened again: its earlier connection is closed")
        if previous.websocket is not None:
            closing = asyncio.create_task(_close_taken_over(previous.websocket))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def _may_start(self, websocket: web.WebSocketResponse) -> bool:
        connection = _CURRENT.get()
        connection.websocket = websocket
        if connection.previous is not None and not connection.taken_over:
            await connection.previous.ended.wait()
        if connection.taken_over:
            await _close_taken_over(websocket)
            return False
        return True

    async def _end_when_revoked(self, token: str, session: asyncio.Task[object] | None) -> None:
        while self.seat_for(token) is not None:  # noqa: ASYNC110 (revoked in another process)
            await asyncio.sleep(REVOKE_CHECK_S)
        logger.warning("a revoked seat was disconnected")
        if session is not None:
            session.cancel()


async def _close_taken_over(websocket: web.WebSocketResponse) -> None:
    await websocket.close(code=TAKEN_OVER_CODE, message=TAKEN_OVER.encode())
