"""Who holds each seat of a space, and how many connections a space and an address may hold.

A seat link opened many times at once would start a seat app (a whole process) per
connection. The registry is the one place a connection is admitted, and it guarantees, for
every sequence of connects and disconnects:

- at most one connection holds a seat: a new connection to a held seat takes it over, and the
  registry hands back the one it replaced so that the server can tell it and end it;
- no address holds more than :attr:`SeatLimits.per_address` connections, and no more than
  :attr:`SeatLimits.per_space` seats are held at once: a connection past either cap is
  refused (:class:`SeatRefused`, with one sentence) and changes nothing.

It is plain data (no sockets, no processes), so the guarantee is tested over generated
sequences; the server waits for a replaced connection's app to stop before starting the new
one, so at most one app runs per seat.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Generic, TypeVar

H = TypeVar("H")

DEFAULT_PER_ADDRESS = 8
"""Connections one address may hold at once (every seat of a small meeting, from one host)."""
DEFAULT_PER_SPACE = 16
"""Seats of one space that may hold a running app at once."""


@dataclass(frozen=True, slots=True)
class SeatLimits:
    per_address: int = DEFAULT_PER_ADDRESS
    per_space: int = DEFAULT_PER_SPACE

    def __post_init__(self) -> None:
        if self.per_address < 1 or self.per_space < 1:
            raise ValueError("a seat limit is at least 1")


class SeatRefused(Exception):
    """A connection past a cap: ``str(exc)`` is the sentence its client is shown."""


@dataclass(slots=True)
class SeatRegistry(Generic[H]):
    """The seats held by connections (``H`` is the server's handle of one connection)."""

    limits: SeatLimits = field(default_factory=SeatLimits)
    _holders: dict[str, tuple[H, str]] = field(default_factory=dict)
    _per_address: Counter[str] = field(default_factory=Counter)
    _open: dict[int, tuple[str, str]] = field(default_factory=dict)

    def admit(self, seat: str, address: str, handle: H) -> H | None:
        """Let ``handle`` (a connection from ``address``) hold ``seat``; returns the connection
        it took the seat from, if any. Raises :class:`SeatRefused` past a cap."""
        if id(handle) in self._open:
            raise ValueError("this connection was already admitted")
        if self._per_address[address] >= self.limits.per_address:
            raise SeatRefused(
                f"Too many connections from your address (at most {self.limits.per_address}): "
                "close another window of this space and try again."
            )
        previous = self._holders.get(seat)
        if previous is None and len(self._holders) >= self.limits.per_space:
            raise SeatRefused(
                f"This space already has {self.limits.per_space} seats open, its limit: "
                "try again when someone leaves."
            )
        self._holders[seat] = (handle, address)
        self._per_address[address] += 1
        self._open[id(handle)] = (seat, address)
        return None if previous is None else previous[0]

    def holds(self, seat: str, handle: H) -> bool:
        """Whether ``handle`` still holds ``seat`` (it was not taken over)."""
        holder = self._holders.get(seat)
        return holder is not None and holder[0] is handle

    def release(self, handle: H) -> None:
        """``handle``'s connection ended: its address slot, and its seat if it still holds it."""
        opened = self._open.pop(id(handle), None)
        if opened is None:
            return
        seat, address = opened
        self._per_address[address] -= 1
        if self._per_address[address] <= 0:
            del self._per_address[address]
        if self.holds(seat, handle):
            del self._holders[seat]

    def held_seats(self) -> int:
        return len(self._holders)

    def connections_from(self, address: str) -> int:
        return self._per_address[address]
