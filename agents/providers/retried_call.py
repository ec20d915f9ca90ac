"""One model call, tried again after a transient failure or a context overflow, before its
first token only (:mod:`agents.providers.transient_retry`, :mod:`agents.providers.context_overflow`).

:class:`RetriedCall` holds what one call has left (tries, waiting) and says what it does in
the status pane (a :data:`PROVIDER_STATUS_NODE` line: "rate limited, retrying in 2 s", then
"answered on try 2" or "gave up after 3 tries"). :func:`retried_stream` and
:func:`retried_result` run a streamed or a whole call under it (:func:`retried_stream_sync`
and :func:`retried_result_sync` a sync one, by the same rules).

Why before the first token only: what a stream has yielded has been shown, and a tool call it
announced may be run; a retry past that point could show a reply twice or run a tool again.
A failure while the stream has yielded only chunks that carry nothing (the role, an empty
delta: they merge with anything unchanged) is retried; any later failure ends the call as it
does without retries (the partial reply is kept). Tool calls of earlier
rounds are never repeated either: each round is a model call of its own, and a retry repeats
only the request of the call that failed.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Literal, TypeVar

from agents.providers.context_overflow import (
    ContextTooLongError,
    ContextWindow,
    overflow_status,
    read_overflow,
)
from agents.providers.transient_retry import RetryBudget, transient_failure, waiting_line

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage
    from langchain_core.outputs import ChatGenerationChunk

logger = logging.getLogger(__name__)

PROVIDER_STATUS_NODE = "provider"
"""The node name of status lines about the provider itself (retries, a trimmed request)."""

StatusState = Literal["running", "done", "error"]
Notify = Callable[[str, StatusState], None]
"""Shows a status line: (text, state)."""

T = TypeVar("T")


def show_provider_status(text: str, state: StatusState) -> None:
    """A :data:`PROVIDER_STATUS_NODE` line in the turn's status pane (none outside a graph)."""
    from agents.graph.status import emit_status

    emit_status(PROVIDER_STATUS_NODE, text, state)


class RetriedCall:
    """The retries of one model call and the status lines that tell the user about them."""

    def __init__(
        self, window: ContextWindow | None = None, notify: Notify = show_provider_status
    ) -> None:
        self.budget = RetryBudget()
        self.window = window
        """The model's context window handling (none: an overflow is not retried)."""
        self.notify = notify
        self.tries = 1
        self._waiting_for: str | None = None
        """What the call is retrying after, while a status line says so."""

    def prepare(self, messages: list[BaseMessage]) -> list[BaseMessage]:
        """The messages of the first try: cut to a context window learned earlier."""
        return self.window.prepare(messages) if self.window else messages

    async def recover(
        self, exc: BaseException, messages: list[BaseMessage]
    ) -> list[BaseMessage] | None:
        """After ``exc`` (raised before the first token): the messages to try again with,
        once any wait is over (cancellable), or ``None`` when the caller should raise ``exc``.
        Raises :class:`ContextTooLongError` for a request that cannot fit the window."""
        again, wait = self._plan(exc, messages)
        if wait is not None:
            await self.budget.policy.sleep(wait)
        return again

    def recover_sync(
        self, exc: BaseException, messages: list[BaseMessage]
    ) -> list[BaseMessage] | None:
        """:meth:`recover` for a sync call: the same decision, the wait blocking."""
        again, wait = self._plan(exc, messages)
        if wait is not None:
            self.budget.policy.block(wait)
        return again

    def _plan(
        self, exc: BaseException, messages: list[BaseMessage]
    ) -> tuple[list[BaseMessage] | None, float | None]:
        """(the messages to try again with, or ``None``; the wait before that try, if any)."""
        fitted = self._refit(exc, messages)
        if fitted is not None:
            self.tries += 1
            return fitted, None
        failure = transient_failure(exc, self.budget.policy.now)
        if failure is None:
            self._settle(f"{self._waiting_for}: the next try failed", "error")
            return None, None
        wait = self.budget.next_wait(failure)
        if wait is None:
            tries = self.tries
            self._settle(
                f"{failure.what}: gave up after {tries} tr{'y' if tries == 1 else 'ies'}", "error"
            )
            return None, None
        logger.info(
            "transient provider failure; trying again",
            extra={"failure": failure.what, "wait_s": wait, "try": self.tries},
        )
        self._waiting_for = failure.what
        self.notify(waiting_line(failure, wait), "running")
        self.tries += 1
        return messages, wait

    def _refit(self, exc: BaseException, messages: list[BaseMessage]) -> list[BaseMessage] | None:
        if self.window is None:
            return None
        try:
            fitted = self.window.refit(exc, messages)
        except ContextTooLongError:
            self._settle(f"{self._waiting_for}: the next try failed", "error")
            raise
        if fitted is not None:
            overflow = read_overflow(exc)
            self._waiting_for = "the request did not fit the model's context window"
            self.notify(overflow_status(overflow.window if overflow else None), "running")
        return fitted

    def answered(self) -> None:
        """The call got its first token: a retry line turns into "answered on try N"."""
        self._settle(f"{self._waiting_for}: answered on try {self.tries}", "done")

    def _settle(self, text: str, state: StatusState) -> None:
        if self._waiting_for is not None:
            self.notify(text, state)
            self._waiting_for = None


def _has_substance(chunk: ChatGenerationChunk) -> bool:
    """Whether a chunk carries anything of the reply: text, a tool call, reasoning, a finish
    reason or usage (a role-only chunk carries nothing, and merges with anything unchanged)."""
    message = chunk.message
    return bool(
        message.content
        or getattr(message, "tool_call_chunks", None)
        or getattr(message, "usage_metadata", None)
        or message.additional_kwargs
        or chunk.generation_info
    )


async def retried_stream(
    messages: list[BaseMessage],
    start: Callable[[list[BaseMessage]], AsyncIterator[ChatGenerationChunk]],
    call: RetriedCall | None = None,
) -> AsyncIterator[ChatGenerationChunk]:
    """The chunks of ``start(messages)``'s stream, started again after a transient failure or
    an overflow that came before any chunk with substance (see the module's docstring)."""
    call = call or RetriedCall()
    sent = call.prepare(messages)
    while True:
        started = False
        try:
            async for chunk in start(sent):
                if not started and _has_substance(chunk):
                    started = True
                    call.answered()
                yield chunk
        except Exception as exc:
            again = None if started else await call.recover(exc, sent)
            if again is None:
                raise
            sent = again
            continue
        if not started:  # a stream of nothing but empty chunks
            call.answered()
        return


def retried_stream_sync(
    messages: list[BaseMessage],
    start: Callable[[list[BaseMessage]], Iterator[ChatGenerationChunk]],
    call: RetriedCall | None = None,
) -> Iterator[ChatGenerationChunk]:
    """:func:`retried_stream` for a sync stream (the same rules, the waits blocking)."""
    call = call or RetriedCall()
    sent = call.prepare(messages)
    while True:
        started = False
        try:
            for chunk in start(sent):
                if not started and _has_substance(chunk):
                    started = True
                    call.answered()
                yield chunk
        except Exception as exc:
            again = None if started else call.recover_sync(exc, sent)
            if again is None:
                raise
            sent = again
            continue
        if not started:
            call.answered()
        return


def retried_result_sync(
    messages: list[BaseMessage],
    start: Callable[[list[BaseMessage]], T],
    call: RetriedCall | None = None,
) -> T:
    """:func:`retried_result` for a sync call."""
    call = call or RetriedCall()
    sent = call.prepare(messages)
    while True:
        try:
            result = start(sent)
        except Exception as exc:
            again = call.recover_sync(exc, sent)
            if again is None:
                raise
            sent = again
            continue
        call.answered()
        return result


async def retried_result(
    messages: list[BaseMessage],
    start: Callable[[list[BaseMessage]], Awaitable[T]],
    call: RetriedCall | None = None,
) -> T:
    """``await start(messages)``, tried again after a transient failure or an overflow (a
    whole answer: nothing of it was shown before it came)."""
    call = call or RetriedCall()
    sent = call.prepare(messages)
    while True:
        try:
            result = await start(sent)
        except Exception as exc:
            again = await call.recover(exc, sent)
            if again is None:
                raise
            sent = again
            continue
        call.answered()
        return result
