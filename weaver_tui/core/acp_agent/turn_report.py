"""What a session is told after each turn: the tokens the turn spent (the prompt response's
``usage``), how full the model's context window is (``usage_update``), and the conversation's
title when it is new (``session_info_update``).

``usage_update`` counts what the session's branch will send next (its messages as the next
turn reads them, estimated as the app's header counts them) against the model's context
window; when the window is not known it is not sent, rather than sent with a made-up size.
Its ``cost`` is the turn's, as the provider reported it (OpenRouter's credits, in US dollars);
none is sent when no call reported one.
"""

from __future__ import annotations

from collections.abc import Sequence

from acp.schema import Cost, SessionInfoUpdate, UsageUpdate
from acp.schema import Usage as AcpUsage

from agents.runtime.events import Usage
from storage.models import Conversation, MessageRecord
from storage.printable import printable


def prompt_usage(usage: Usage | None) -> AcpUsage | None:
    """The turn's tokens as ACP reports them (``None`` when the provider reported none)."""
    if usage is None or usage.total_tokens <= 0:
        return None
    return AcpUsage(
        total_tokens=max(0, usage.total_tokens),
        input_tokens=max(0, usage.input_tokens),
        output_tokens=max(0, usage.output_tokens),
        thought_tokens=_count(usage.reasoning_tokens),
        cached_read_tokens=_count(usage.cached_tokens),
    )


def _count(value: int | None) -> int | None:
    return None if value is None or value < 0 else value


def usage_update(
    branch: Sequence[MessageRecord], limit: int, window: int | None, usage: Usage | None
) -> UsageUpdate | None:
    """How full the context window is after the turn (``None`` when the window is unknown)."""
    if window is None or window <= 0:
        return None
    from agents.context import context_records, estimate_tokens

    summary, records = context_records(branch, limit)
    used = estimate_tokens("", summary, records)
    cost = usage.cost if usage is not None else None
    return UsageUpdate(
        session_update="usage_update",
        used=max(0, used),
        size=window,
        cost=Cost(amount=cost, currency="USD") if cost is not None and cost >= 0 else None,
    )


def info_update(conversation: Conversation) -> SessionInfoUpdate:
    """The conversation's title (printable) and when it last changed."""
    return SessionInfoUpdate(
        session_update="session_info_update",
        title=printable(conversation.title),
        updated_at=conversation.updated_at.isoformat(),
    )
