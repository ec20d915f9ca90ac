"""The seat registry over generated connect/disconnect sequences: at most one connection holds
a seat, a replaced connection is handed back to be ended, and neither cap is ever exceeded
(a refused connection changes nothing)."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule

from weaver_tui.core.seat_registry import SeatLimits, SeatRefused, SeatRegistry

SEATS = st.sampled_from(["alex", "sam", "kim", "lee", "max"])
ADDRESSES = st.sampled_from(["10.0.0.1", "10.0.0.2", "127.0.0.1"])


class Handle:
    """A connection as the server holds it (identity is what counts)."""

    def __init__(self, seat: str, address: str) -> None:
        self.seat = seat
        self.address = address


class SeatRegistryMachine(RuleBasedStateMachine):
    """The registry beside a model of what it must hold."""

    handles = Bundle("handles")

    def __init__(self) -> None:
        super().__init__()
        self.limits = SeatLimits(per_address=3, per_space=3)
        self.registry: SeatRegistry[Handle] = SeatRegistry(self.limits)
        self.open: list[Handle] = []
        self.holder: dict[str, Handle] = {}

    @rule(target=handles, seat=SEATS, address=ADDRESSES)
    def connect(self, seat: str, address: str) -> Handle:
        handle = Handle(seat, address)
        from_address = sum(1 for h in self.open if h.address == address)
        new_seat = seat not in self.holder
        try:
            previous = self.registry.admit(seat, address, handle)
        except SeatRefused:
            assert from_address >= self.limits.per_address or (
                new_seat and len(self.holder) >= self.limits.per_space
            )
            return handle
        assert from_address < self.limits.per_address
        assert previous is self.holder.get(seat)
        self.open.append(handle)
        self.holder[seat] = handle
        return handle

    @rule(handle=consumes(handles))
    def disconnect(self, handle: Handle) -> None:
        self.registry.release(handle)
        if handle in self.open:
            self.open.remove(handle)
        if self.holder.get(handle.seat) is handle:
            del self.holder[handle.seat]

    @invariant()
    def one_holder_per_seat_and_caps_hold(self) -> None:
        assert self.registry.held_seats() == len(self.holder) <= self.limits.per_space
        for seat, handle in self.holder.items():
            assert self.registry.holds(seat, handle)
            assert not any(self.registry.holds(seat, h) for h in self.open if h is not handle)
        for address in ("10.0.0.1", "10.0.0.2", "127.0.0.1"):
            count = self.registry.connections_from(address)
            assert count == sum(1 for h in self.open if h.address == address)
            assert count <= self.limits.per_address


SeatRegistryMachine.TestCase.settings = settings(
    max_examples=100, stateful_step_count=40, deadline=None
)
test_seat_registry_holds_its_guarantee_over_any_sequence = SeatRegistryMachine.TestCase


def test_a_second_connection_takes_the_seat_over_and_the_first_is_handed_back() -> None:
    registry: SeatRegistry[Handle] = SeatRegistry(SeatLimits(per_address=10, per_space=1))
    first, second = Handle("alex", "a"), Handle("alex", "a")
    assert registry.admit("alex", "a", first) is None
    assert registry.admit("alex", "a", second) is first
    assert registry.holds("alex", second)
    assert not registry.holds("alex", first)
    registry.release(first)  # the replaced connection ends: the seat stays with the second
    assert registry.holds("alex", second)
    with pytest.raises(SeatRefused):  # one seat per space: another seat is refused
        registry.admit("sam", "b", Handle("sam", "b"))


def test_limits_are_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        SeatLimits(per_address=0)
