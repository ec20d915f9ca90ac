"""An async context manager entered by ``enter_whole`` is closed by its stack whatever moment
the entering task is cancelled at: during its opening, or after it."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from types import TracebackType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.whole_enter import enter_whole


class Opening:
    """A manager whose opening takes ``steps`` turns of the loop and may fail at the end; once
    made, its resource exists before the opening returns (as an aiosqlite connection does,
    made by its worker thread before the result reaches the task awaiting it)."""

    def __init__(self, steps: int, fails: bool) -> None:
        self.steps, self.fails = steps, fails
        self.opened = self.closed = False

    async def __aenter__(self) -> Opening:
        for _ in range(self.steps):
            await asyncio.sleep(0)
        if self.fails:
            raise OSError("cannot open")
        self.opened = True
        await asyncio.sleep(0)  # the result on its way to the task that opens it
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.closed = True


async def _open_then_cancel(manager: Opening, cancel_after: int) -> str:
    stack = AsyncExitStack()

    async def opener() -> None:
        await enter_whole(stack, manager)
        await asyncio.sleep(3600)  # the owner goes on using it until cancelled

    task = asyncio.ensure_future(opener())
    for _ in range(cancel_after):
        await asyncio.sleep(0)
    task.cancel()
    try:
        await task
        outcome = "finished"
    except asyncio.CancelledError:
        outcome = "cancelled"
    except OSError:
        outcome = "failed"
    await stack.aclose()  # what the owner does when it is cancelled or done
    return outcome


@settings(max_examples=200, deadline=None)
@given(steps=st.integers(0, 6), fails=st.booleans(), cancel_after=st.integers(0, 10))
def test_an_opening_that_succeeds_is_always_closed_by_its_stack(
    steps: int, fails: bool, cancel_after: int
) -> None:
    manager = Opening(steps, fails)
    outcome = asyncio.run(_open_then_cancel(manager, cancel_after))
    assert manager.closed is manager.opened
    assert not (fails and manager.opened)
    assert outcome in {"cancelled", "failed"}


async def test_a_cancelled_opening_still_raises_the_cancellation() -> None:
    manager = Opening(steps=3, fails=False)
    stack = AsyncExitStack()
    task = asyncio.ensure_future(enter_whole(stack, manager))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert manager.opened
    assert not manager.closed
    await stack.aclose()
    assert manager.closed
