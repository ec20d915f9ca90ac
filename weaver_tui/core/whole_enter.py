"""Entering an async context manager whole, even when the task entering it is cancelled.

``AsyncExitStack.enter_async_context`` registers a manager's exit only once its ``__aenter__``
has returned. A task cancelled while a manager opens (the app quitting while its first turn
opens the checkpointer) loses what the opening made half-way: an aiosqlite connection whose
worker thread later reports to a closed event loop, a saver never set up. :func:`enter_whole`
lets the opening finish in a task of its own, registers its exit on the stack, and only then
lets the cancellation through, so the stack's owner closes it like anything else it opened.

Guarantee, for every manager and every moment of cancellation: when the opening succeeds,
its exit is on ``stack`` before ``enter_whole`` returns or raises; when it fails, nothing is.
"""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import TypeVar

_T = TypeVar("_T")


async def enter_whole(stack: AsyncExitStack, manager: AbstractAsyncContextManager[_T]) -> _T:
    """``await stack.enter_async_context(manager)``, finished even if this task is cancelled
    meanwhile (then the cancellation is raised once the exit is on ``stack``)."""
    entering = asyncio.ensure_future(stack.enter_async_context(manager))
    try:
        return await asyncio.shield(entering)
    except asyncio.CancelledError:
        if not entering.done():
            await asyncio.wait([entering])  # the opening's own end: its exit is then on stack
        if not entering.cancelled():
            entering.exception()  # an opening that failed meanwhile: the cancellation wins
        raise
