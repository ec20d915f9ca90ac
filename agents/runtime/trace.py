"""One trace id per turn, carried by a context variable so every log line of the turn has it.

The runtime opens a trace around each turn; the JSON log formatter (``weaver_tui.core.logs``) reads
:data:`trace_id_var` for every record, so library code never passes it around.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

trace_id_var: ContextVar[str | None] = ContextVar("weaver_trace_id", default=None)


def new_trace_id() -> str:
    return uuid.uuid4().hex[:16]


@contextmanager
def trace(trace_id: str | None = None) -> Iterator[str]:
    """Set the current trace id for the block (a fresh one unless given)."""
    value = trace_id or new_trace_id()
    token = trace_id_var.set(value)
    try:
        yield value
    finally:
        trace_id_var.reset(token)
