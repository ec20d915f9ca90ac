"""The ways of asking a model for a structured answer, best first, and which one each
endpoint needs.

A forced tool call is the most reliable; thinking modes reject it, some servers ignore it, some
models take no tools at all. :class:`RungMemo` remembers, per base URL and model, the first way
that endpoint honoured, so a later call starts there instead of paying again for requests the
endpoint refuses.
"""

from __future__ import annotations

import threading
from enum import IntEnum
from typing import Any


class Rung(IntEnum):
    """One way of asking, in the order they are tried."""

    FORCED_TOOL = 0
    """The schema as the one tool, its call forced (``tool_choice`` names it)."""
    AUTO_TOOL = 1
    """The schema as the one tool, ``tool_choice: auto``, and an instruction to call it."""
    JSON_MODE = 2
    """``response_format: json_object`` and the schema in the instruction."""
    PROSE_JSON = 3
    """Only the instruction; the JSON is read from the prose or a ```json fence."""


Endpoint = tuple[str, str]
"""(base URL, model name): what a remembered rung belongs to."""


def endpoint_of(model: Any) -> Endpoint:
    """(base URL, model name) of a chat model: what its remembered rung belongs to."""
    base_url = getattr(model, "openai_api_base", None) or type(model).__name__
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or ""
    return str(base_url).rstrip("/"), str(name)


class RungMemo:
    """The first rung each endpoint honoured (process-wide, safe across threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._start: dict[Endpoint, Rung] = {}

    def start(self, endpoint: Endpoint, default: Rung = Rung.FORCED_TOOL) -> Rung:
        """Where a call to ``endpoint`` starts: the remembered rung, else ``default``."""
        with self._lock:
            return max(self._start.get(endpoint, default), default)

    def remember(self, endpoint: Endpoint, rung: Rung) -> None:
        """``endpoint`` honoured ``rung`` after refusing (or ignoring) the ones above it."""
        with self._lock:
            self._start[endpoint] = rung

    def forget(self) -> None:
        """Forget every endpoint (a new process, or a test that starts afresh)."""
        with self._lock:
            self._start.clear()


MEMO = RungMemo()
"""The memo every structured call of this process shares."""
