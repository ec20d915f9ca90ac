"""Which provider failures are worth another try, and how long to wait before it.

The OpenAI client's own retries stay off (``max_retries=0``): they show nothing, cannot be
cancelled and never retry a stream already started. Instead every model call is retried here,
by the model itself (:mod:`agents.providers.retried_call`), before its first token only.

The class closed here: **a transient failure** is one that says the server could not take the
request just now (an allowlist, :data:`RETRIED_STATUSES`): a 408 (the server timed the request
out), a 409 (a conflict, such as a lock held), a 429 that is not an exhausted quota, a gateway
or an overloaded server (502, 503, 504, Cloudflare's 520-524 in front of a provider,
Anthropic's 529 "overloaded"); an error said in a stream's body before anything of the reply (a 200 whose
stream's first event is ``{"error": {"code": 502}}``, as OpenRouter sends, or an
``overloaded_error``), read by the status or kind its body names; or a connection reset
after it was made (not a refused connection: nothing listens there, and waiting does not
change that; not a timeout: the user chose how long a call may take). Any other status (400,
401, 403, 404, 413, a 500 or 501 that is the server's own error about this request ...) is
not: the same request would most likely fail the same way, so it ends at once with its
sentence. For any sequence of failures:

- only transient failures are retried, and never more than :data:`MAX_TRIES` tries in all;
- the waits requested add up to at most :data:`WAIT_BUDGET_S`; a ``Retry-After`` the server
  names (seconds or an HTTP date) is waited exactly, or, when it is longer than what is left,
  not at all: the call fails at once with the sentence naming the wait;
- the wait is an ``await`` on an injected sleeper, so cancelling the turn (Esc) ends it (a
  sync call, ``stream`` or ``invoke``, waits on the injected blocking sleeper instead, under
  the same rules).
"""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

MAX_TRIES = 3
WAIT_BUDGET_S = 30.0
BACKOFF_S = (2.0, 4.0)
"""The waits before the second and third try when the server names none."""
RETRIED_STATUSES = frozenset({408, 409, 502, 503, 504, 520, 521, 522, 523, 524, 529})
"""The statuses worth another try (an allowlist; a 429 that is not a quota is one too)."""

Sleeper = Callable[[float], Awaitable[None]]
Blocker = Callable[[float], None]
"""Waits in a sync call (``stream``, ``invoke``), which has no event loop to await on."""
Clock = Callable[[], float]


@dataclass(frozen=True)
class RetryPolicy:
    """How many tries, how much waiting in all, and the sleeper and wall clock to use."""

    tries: int = MAX_TRIES
    budget_s: float = WAIT_BUDGET_S
    backoff_s: tuple[float, ...] = BACKOFF_S
    sleep: Sleeper = asyncio.sleep
    block: Blocker = time.sleep
    now: Clock = time.time
    """The wall clock an HTTP-date ``Retry-After`` is read against."""


DEFAULT_POLICY = RetryPolicy()
"""The policy every model call uses (tests put one with a recording sleeper in its place)."""


def current_policy() -> RetryPolicy:
    """The policy in force now (read at each call, so a replaced default takes effect)."""
    return DEFAULT_POLICY


@dataclass(frozen=True)
class Transient:
    """A failure worth another try: what happened, in a few words, and the wait it names."""

    what: str
    retry_after: float | None = None


_RESET_NAMES = frozenset(
    {"ReadError", "RemoteProtocolError", "WriteError", "BrokenResourceError", "ClosedResourceError"}
)
_RESET_ERRORS = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)
_NOT_MADE_NAMES = frozenset({"ConnectError", "ConnectTimeout", "TimeoutException", "ReadTimeout"})


def transient_failure(exc: BaseException, now: Clock = time.time) -> Transient | None:
    """What ``exc`` is as a transient failure, or ``None`` when another try would not help."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return None
    if isinstance(exc, openai.APIStatusError):
        headers = getattr(exc.response, "headers", None)
        return _by_status(exc, exc.status_code, parse_retry_after(headers, now=now))
    if isinstance(exc, openai.APIError) and not isinstance(exc, openai.APIConnectionError):
        return _said_in_body(exc)
    return Transient("the connection was reset") if _reset(exc) else None


def _by_status(exc: Any, status: int, retry_after: float | None) -> Transient | None:
    if status == 429:
        return None if _out_of_quota(exc) else Transient("rate limited", retry_after)
    if status not in RETRIED_STATUSES:
        return None
    if status in (408, 409):
        what = "timed the request out" if status == 408 else "reported a conflict"
        return Transient(f"the server {what} ({status})", retry_after)
    return Transient(f"the server is overloaded ({status})", retry_after)


_OVERLOADED_WORDS = ("overloaded", "unavailable", "capacity")


def _said_in_body(exc: Any) -> Transient | None:
    """An error a 200 answer's stream said (no HTTP status of its own), by the status its
    body names (``{"code": 502}``) or its kind (``overloaded_error``, ``rate_limit_exceeded``)."""
    body = getattr(exc, "body", None)
    if not isinstance(body, dict):
        return None
    code = body.get("code") if body.get("code") is not None else body.get("status")
    if isinstance(code, str) and code.isdigit():
        code = int(code)
    if isinstance(code, int) and not isinstance(code, bool) and 400 <= code <= 599:
        return _by_status(exc, code, None)
    kinds = f"{body.get('type') or ''} {body.get('code') or ''}".lower()
    if any(word in kinds for word in _OVERLOADED_WORDS):
        return Transient("the server is overloaded")
    if "rate_limit" in kinds and not _out_of_quota(exc):
        return Transient("rate limited")
    return None


def parse_retry_after(headers: Any, now: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date,
    read against ``now``); ``None`` when there is neither or it cannot be read."""
    if headers is None:
        return None
    millis = _finite(headers.get("retry-after-ms"))
    if millis is not None:
        return max(0.0, millis / 1000)
    value = headers.get("retry-after")
    if not value:
        return None
    seconds = _finite(value)
    if seconds is not None:
        return max(0.0, seconds)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # an HTTP date is GMT; a date without a zone is read as such
        when = when.replace(tzinfo=datetime.UTC)
    return max(0.0, when.timestamp() - now())


def _finite(value: Any) -> float | None:
    """``value`` as a finite number of seconds, or ``None`` (absent, not a number, inf, nan)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _out_of_quota(exc: Any) -> bool:
    body = getattr(exc, "body", None)
    kinds = f"{getattr(exc, 'code', '')} {getattr(exc, 'type', '')} {body}".lower()
    return "quota" in kinds


def _reset(exc: BaseException) -> bool:
    """Whether the connection was made and then cut (somewhere in ``exc``'s causes)."""
    reset, seen = False, 0
    cause: BaseException | None = exc
    while cause is not None and seen < 16:
        name = type(cause).__name__
        if name in _NOT_MADE_NAMES:
            return False
        reset = reset or name in _RESET_NAMES or isinstance(cause, _RESET_ERRORS)
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return reset


@dataclass
class RetryBudget:
    """The tries and waiting one model call has left."""

    policy: RetryPolicy = field(default_factory=current_policy)
    tries: int = 1
    waited: float = 0.0
    waits: list[float] = field(default_factory=list)

    def next_wait(self, failure: Transient) -> float | None:
        """The seconds to wait before the next try, or ``None`` to give up now (no tries
        left, or a named wait longer than the budget left)."""
        if self.tries >= self.policy.tries:
            return None
        left = max(0.0, self.policy.budget_s - self.waited)
        if failure.retry_after is not None:
            wait = max(0.0, failure.retry_after)
            if wait > left:
                return None
        else:
            backoff = self.policy.backoff_s or (0.0,)
            wait = min(backoff[min(self.tries - 1, len(backoff) - 1)], left)
        self.tries += 1
        self.waited += wait
        self.waits.append(wait)
        return wait


def waiting_line(failure: Transient, wait: float) -> str:
    """The status line shown while waiting: "rate limited, retrying in 2 s"."""
    if wait < 0.5:
        return f"{failure.what}, retrying now"
    return f"{failure.what}, retrying in {math.ceil(wait - 1e-9)} s"
