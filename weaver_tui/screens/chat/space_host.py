"""The host's chat serving its open space: "Invite participants" and "Close shared space".

A conversation of a profile that declares seats (``ProfileTraits.seats``) can be served from
the chat itself, as ``weaver-tui space open`` serves it: the same guarded server
(:class:`weaver_tui.core.space_server.SpaceServer`, one token per participant, each opening a seat
locked to them), run in the background of this app until the space is closed or the app
quits, with the seats' messages answered here, one at a time and in order
(:class:`agents.runtime.seat_queue.SeatQueueRunner` on this chat's runtime and model). What the
runner writes, and who is connected, reach the screen through its change follower.

The space is served on this machine's loopback address (port :data:`PREFERRED_PORT` when it is
free, else one the system picks): a participant at another machine needs the host's
``weaver-tui space open --host``. Closing revokes the links (a connected seat is disconnected).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

from storage.backend import open_changes, open_seat_book
from storage.seats import Seat
from storage.store import StorageError

if TYPE_CHECKING:
    from storage.backend import AnySeatBook
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.core.space_server import SpaceServer
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.chat.turn_runner import TurnRunner

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
PREFERRED_PORT = 8000
"""The port ``weaver-tui space open`` uses by default (links stay the same across runs)."""
LISTEN_BOUND_S = 10.0
"""How long the server may take to listen before the invitation says it could not."""


def free_port(preferred: int = PREFERRED_PORT) -> int:
    """``preferred`` when nothing listens on it here, else a port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as probe:
            try:
                probe.bind((HOST, port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError("no free port on this machine")


@dataclass(frozen=True, slots=True)
class Invitation:
    """The served space: its conversation and one ``NAME: URL`` line per participant."""

    conversation_id: str
    lines: tuple[str, ...]


class SpaceHost:
    """Serves at most one space of this chat at a time (see the module docstring)."""

    def __init__(
        self, surface: ChatSurface, state: ChatState, services: Services, *, turns: TurnRunner
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._turns = turns
        self._book: AnySeatBook | None = None
        self._server: SpaceServer | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.invitation: Invitation | None = None
        """The space being served, once it listens."""

    def can_invite(self) -> bool:
        return (
            self._state.traits.seats
            and self._state.conversation is not None
            and self._surface.agents_ready
        )

    def serving(self) -> bool:
        return self._task is not None and not self._task.done()

    async def invite(self) -> Invitation | None:
        """Serve the open conversation (already served: its links again); ``None`` with the
        reason said in a notification when it cannot be served."""
        conversation = self._state.conversation
        if conversation is None or not self._state.traits.seats:
            return None
        if self.serving() and self.invitation is not None:
            if self.invitation.conversation_id == conversation.id:
                return self.invitation
            await self.close(revoke=False)  # another conversation's space: this one now
        participants = tuple(
            conversation.meta.get("participants") or self._state.traits.participants
        )
        try:
            book = self._seat_book()
            self._services.hand_down_storage()
            book.open_seats(conversation.id, participants)
            return await self._serve(conversation.id, book)
        except (StorageError, OSError) as exc:
            logger.warning("the space was not served", extra={"error": str(exc)})
            self._surface.notify(
                f"The space could not be served: {exc}. Close other servers on this "
                "machine, or run `weaver-tui space open` in a terminal.",
                severity="error",
            )
            return None

    async def _serve(self, conversation_id: str, book: AnySeatBook) -> Invitation | None:
        from weaver_tui.core.cli.space_verbs import seat_command
        from weaver_tui.core.space_server import SpaceServer

        data_dir = self._services.data_dir.resolve()
        max_bytes = self._services.settings.turns.max_message_bytes
        listening = asyncio.Event()

        class Listening(io.StringIO):
            """Where the server announces its links: it has started listening."""

            def flush(self) -> None:
                listening.set()

        server = SpaceServer(
            book,
            conversation_id,
            lambda seat: seat_command(data_dir, seat, max_bytes),
            host=HOST,
            port=free_port(),
            host_work=lambda stop: self._answer_seats(conversation_id, stop),
            out=Listening(),
        )
        self._server, self._stop = server, asyncio.Event()
        self._task = asyncio.create_task(server.serve_until(self._stop))
        self._task.add_done_callback(self._ended)
        waiting = asyncio.create_task(listening.wait())
        await asyncio.wait(
            {waiting, self._task}, timeout=LISTEN_BOUND_S, return_when="FIRST_COMPLETED"
        )
        waiting.cancel()
        if not listening.is_set():
            done = self._task.done() and not self._task.cancelled()
            failure = self._task.exception() if done else None
            await self.close(revoke=False)
            raise OSError(str(failure) if failure else "the server did not start listening")
        lines = tuple(
            f"{seat.participant}: {server.url_for(seat.token)}"
            for seat in self._seats(conversation_id)
        )
        self.invitation = Invitation(conversation_id, lines)
        return self.invitation

    def _ended(self, task: asyncio.Task[None]) -> None:
        """The server stopped: said when it was not closed on purpose."""
        if task.cancelled() or task.exception() is None or task is not self._task:
            return
        error = task.exception()
        logger.warning("the shared space stopped", extra={"error": str(error)})
        self._surface.notify(
            f"The shared space stopped: {error}. Invite participants again to serve it.",
            severity="error",
        )

    def _seats(self, conversation_id: str) -> list[Seat]:
        assert self._book is not None
        return self._book.seats(conversation_id)

    async def _answer_seats(self, conversation_id: str, stop: asyncio.Event) -> None:
        """The host's work beside the server: answer the seats' messages until closed."""
        from agents.runtime.seat_queue import SeatQueueRunner

        assert self._book is not None
        changes = open_changes(self._services.storage, conversation_id)
        try:
            runtime = await self._turns.open_runtime()
            model = await self._services.amodel()
            runner = SeatQueueRunner(runtime, self._book, conversation_id, model)
            await runner.run(changes, stop)
        finally:
            changes.close()

    async def close(self, *, revoke: bool = True) -> int:
        """Stop serving; with ``revoke``, the links of the served space stop opening (how many
        were revoked is returned)."""
        served = self.invitation.conversation_id if self.invitation else None
        await self._stop_serving()
        if not revoke or served is None:
            return 0
        return self._seat_book().close_space(served)

    async def close_shown(self) -> tuple[str, int]:
        """Close the space of the conversation shown, never another's: stop serving it (when
        this chat serves it) and revoke its links. (Its title, how many were revoked.)"""
        conversation = self._state.conversation
        if conversation is None:
            return "", 0
        if self.invitation is not None and self.invitation.conversation_id == conversation.id:
            await self._stop_serving()
        return conversation.title, self._seat_book().close_space(conversation.id)

    async def _stop_serving(self) -> None:
        if self._stop is not None:
            self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._task
        self._server = self._stop = self._task = None
        self.invitation = None

    def _seat_book(self) -> AnySeatBook:
        self._book = self._book or open_seat_book(self._services.storage)
        return self._book

    async def aclose(self) -> None:
        """The app is leaving: stop serving (the links stay valid for the next `space open`)."""
        await self.close(revoke=False)
        if self._book is not None:
            self._book.close()
            self._book = None
