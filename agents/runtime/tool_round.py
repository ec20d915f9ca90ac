"""A tool round's results, stored in the order the model made the calls.

The shared tool node runs a round's calls at once, so their results arrive in the order they
finish. Each result is a record below the one before it, so that order would be the tree's.
The guarantee, whatever order the calls finish in: a round's results are stored in call order.
A result is held until every earlier call of its round has its own; what is held when the
round ends (the next reply, a pause, the turn's end: a call that never answered) is stored
then, still in call order. A result of a call that is not in the round (a tool run inside a
node) is stored at once, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ToolResult:
    """One finished call, as the recorder stores it."""

    call_id: str
    name: str
    output: str
    error: str | None
    duration_ms: float | None
    record_meta: dict[str, Any] | None = None


@dataclass
class RoundOrder:
    """The current round's calls in the model's order, and the results held for them."""

    calls: list[str] = field(default_factory=list)
    stored: set[str] = field(default_factory=set)
    held: dict[str, ToolResult] = field(default_factory=dict)

    def start(self, call_ids: Sequence[str]) -> list[ToolResult]:
        """A new round of ``call_ids``; returns what the last round still held, to store
        first (in call order)."""
        leftover = self.drain()
        self.calls = [c for c in call_ids if c]
        self.stored = set()
        return leftover

    def knows(self, call_id: str) -> bool:
        """Whether the result of ``call_id`` arrived already (held or stored)."""
        return call_id in self.held or call_id in self.stored

    def arrive(self, result: ToolResult) -> list[ToolResult]:
        """``result`` finished; returns the results that may be stored now, in call order."""
        if result.call_id not in self.calls:
            return [result]
        self.held[result.call_id] = result
        ready: list[ToolResult] = []
        for call_id in self.calls:
            if call_id in self.stored:
                continue
            held = self.held.pop(call_id, None)
            if held is None:
                break
            self.stored.add(call_id)
            ready.append(held)
        return ready

    def drain(self) -> list[ToolResult]:
        """Everything still held, in call order (the round is over)."""
        ready = [self.held.pop(c) for c in self.calls if c in self.held]
        self.stored.update(r.call_id for r in ready)
        return ready
