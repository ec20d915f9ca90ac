"""How a request that failed answers: a JSON-RPC error whose message is the one sentence
to show the user (no traceback), with a short code in its data."""

from __future__ import annotations

from acp import RequestError

TURN_FAILED = -32603
"""The JSON-RPC code of a request that failed; its message is the sentence to show."""


def turn_failure(sentence: str, code: str = "error") -> RequestError:
    """A failed request, as the client shows it: the one sentence, no traceback."""
    return RequestError(TURN_FAILED, sentence, {"code": code})
