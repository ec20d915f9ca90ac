"""Retry waits that are recorded instead of slept, so no test waits real seconds for a retry.

Every test runs with a :class:`RecordedWaits` in place of the retry sleeper (an autouse fixture
in ``tests/conftest.py``) and a wall clock fixed at :data:`NOW` (an HTTP-date ``Retry-After``
is read against it). A test asserts the waits requested, never the time that passed.
"""

from __future__ import annotations

import asyncio
from email.utils import formatdate

from agents.providers.transient_retry import RetryPolicy

NOW = 1_800_000_000.0
"""The wall clock's reading in tests (an HTTP date names a time relative to it)."""


def http_date(seconds_from_now: float) -> str:
    """An HTTP date (``Retry-After``'s other form) ``seconds_from_now`` after :data:`NOW`."""
    return formatdate(NOW + seconds_from_now, usegmt=True)


class RecordedWaits(list[float]):
    """The waits requested, in order. ``hold`` makes every wait block until cancelled (the
    turn's cancellation is what ends it), with ``entered`` set as the wait begins."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.entered = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.append(seconds)
        if self.hold:
            self.entered.set()
            await asyncio.Event().wait()

    def block(self, seconds: float) -> None:
        """The sync calls' wait: recorded, never slept."""
        self.append(seconds)

    def policy(self) -> RetryPolicy:
        return RetryPolicy(sleep=self.sleep, block=self.block, now=lambda: NOW)
