"""What the agent tells the client about a session besides a turn's content: the context used
against the model's window (``usage_update``), a conversation's title (``session_info_update``)
and a turn's tokens (the prompt response's ``usage``).

``used`` is an estimate of what the session's next turn sends (the system prompt aside): the
summary and the records the runtime would put in the context for the session's leaf, counted
as the app's header counts them. With no known window (a model whose server lists none), no
``usage_update`` is sent: a size of nothing would read as a full context.
"""

from __future__ import annotations

from datetime import UTC
from typing import TYPE_CHECKING, Any

from acp.schema import Cost, SessionInfoUpdate, Usage, UsageUpdate

from storage.printable import printable_title

if TYPE_CHECKING:
    from agents.runtime import events as ev
    from storage.models import Conversation
    from storage.store import ConversationStore
    from weaver_tui.core.acp_agent.sessions import AcpSession

CONTEXT_RECORDS = 10_000
"""The records a window may hold at most, for the estimate (the runtime trims by tokens)."""


def usage_update(store: ConversationStore, session: AcpSession, model: Any) -> UsageUpdate | None:
    window = getattr(model, "context_window", None)
    if not isinstance(window, int) or window <= 0 or session.conversation_id is None:
        return None
    from agents.context import context_records, estimate_tokens

    leaf = session.leaf_id
    if leaf is None:
        active = store.active_leaf(session.conversation_id)
        leaf = active.id if active is not None else None
    path = store.path_to_root(leaf) if leaf is not None else []
    summary, records = context_records(path, CONTEXT_RECORDS)
    used = estimate_tokens("", summary, records)
    cost = Cost(amount=session.cost, currency="USD") if session.cost is not None else None
    return UsageUpdate(session_update="usage_update", used=used, size=window, cost=cost)


def info_update(conversation: Conversation) -> SessionInfoUpdate:
    updated = conversation.updated_at
    if updated.tzinfo is None:
        updated = updated.replace(tzinfo=UTC)
    return SessionInfoUpdate(
        session_update="session_info_update",
        title=printable_title(conversation.title),
        updated_at=updated.isoformat(),
    )


def prompt_usage(usage: ev.Usage | None) -> Usage | None:
    """A turn's tokens as the prompt response carries them (``None`` when none were told)."""
    if usage is None:
        return None
    return Usage(
        total_tokens=max(0, usage.total_tokens),
        input_tokens=max(0, usage.input_tokens),
        output_tokens=max(0, usage.output_tokens),
        thought_tokens=usage.reasoning_tokens,
        cached_read_tokens=usage.cached_tokens,
    )
