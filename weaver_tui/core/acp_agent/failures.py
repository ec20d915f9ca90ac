"""How a request that failed answers: a JSON-RPC error whose message is the one sentence
to show the user (no traceback), with a short code in its data."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from acp import RequestError

if TYPE_CHECKING:  # the agent answers ``initialize`` before the graph libraries load
    from acp.helpers import SessionUpdate
    from acp.schema import StopReason

    from agents.errors import WeaverError
    from agents.runtime.events import RunError

TURN_FAILED = -32603
"""The JSON-RPC code of a request that failed; its message is the sentence to show."""


def turn_failure(sentence: str, code: str = "error") -> RequestError:
    """A failed request, as the client shows it: the one sentence, no traceback."""
    return RequestError(TURN_FAILED, sentence, {"code": code})


STOP_REASONS: dict[str, StopReason] = {
    "truncated": "max_tokens",
    "refused": "refusal",
    "filtered": "refusal",
}
"""A reply that ended marked, as ACP's stop reason: cut at the output limit is ``max_tokens``,
refused or filtered by the provider is ``refusal``. An empty reply has no stop reason of its
own: it is a failed request (:func:`turn_failure`) the client shows."""


def marked_stop_reason(error: WeaverError) -> StopReason | None:
    """The stop reason of a turn that failed with ``error``; ``None``: a failed request."""
    from agents.reply_outcome import MarkedReply

    if not isinstance(error, MarkedReply):
        return None
    return STOP_REASONS.get(error.outcome.kind)


def marked_updates(event: RunError) -> Iterator[SessionUpdate]:
    """What the client is shown of a reply that ended marked, after its text (a refusal's
    words arrive as text too): the sentence that says what happened."""
    from acp.helpers import update_agent_message_text

    from storage.printable import printable

    yield update_agent_message_text("\n\n" + printable(event.error.user_message))
