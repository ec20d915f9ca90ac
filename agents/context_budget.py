"""The hard backstop on what one model call sends: it fits the model's context window in tokens.

The context window chooses records (the last N, pins, a summary: :mod:`agents.context`), but N
records of long tool output, or a turn's own tool rounds, can still outgrow the model's window,
and the provider then refuses the whole request. Before each call of the agent node the
messages are cut to the window less room for the reply: every tool result is capped to a share
of it, then langchain-core's ``trim_messages`` drops the oldest messages (whole, starting the
kept part on a user message so no tool result loses its call). System messages (the prompt,
the branch's summary) and the messages the user pinned are always kept; so is the current
question, even alone. Tokens are counted approximately (about four characters a token):
an exact tokenizer would download its tables at first use.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence

from langchain_core.messages import (
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.utils import count_tokens_approximately, trim_messages

logger = logging.getLogger(__name__)

CONTEXT_WINDOW_KEY = "context_window"
"""``TurnContext.extra[CONTEXT_WINDOW_KEY]``: the turn's model's window in tokens, or None."""
REPLY_SHARE = 4
"""A quarter of the window is left for the reply (at most :data:`REPLY_TOKENS_MAX`)."""
REPLY_TOKENS_MAX = 16_384
TOOL_RESULT_SHARE = 4
"""One tool result may fill at most a quarter of what the request may send."""
CHARS_PER_TOKEN = 4


def request_budget(window: int) -> int:
    """The tokens a request may send to a model with a ``window``-token context."""
    return window - min(window // REPLY_SHARE, REPLY_TOKENS_MAX)


def fit_to_window(
    messages: Sequence[AnyMessage], window: int | None, pinned: Collection[str] = ()
) -> list[AnyMessage]:
    """``messages`` cut to fit ``window`` tokens (unchanged when no window is known)."""
    if not window:
        return list(messages)
    budget = request_budget(window)
    capped = [_capped(m, budget // TOOL_RESULT_SHARE) for m in messages]
    if count_tokens_approximately(capped) <= budget:
        return capped
    always = [m for m in capped if _always_kept(m, pinned)]
    rest = [m for m in capped if not _always_kept(m, pinned)]
    room = max(0, budget - count_tokens_approximately(always))
    kept: Sequence[BaseMessage] = trim_messages(
        rest,
        max_tokens=room,
        token_counter=count_tokens_approximately,
        strategy="last",
        start_on="human",
        allow_partial=False,
    )
    current = _current_turn(rest)
    if len(kept) < len(current):
        kept = current  # the question itself is never dropped
    chosen = {id(m) for m in (*always, *kept)}
    fitted = [m for m in capped if id(m) in chosen]
    logger.info(
        "context trimmed to the model's window",
        extra={"window": window, "sent": len(fitted), "dropped": len(capped) - len(fitted)},
    )
    return fitted


def _always_kept(message: AnyMessage, pinned: Collection[str]) -> bool:
    return isinstance(message, SystemMessage) or (message.id is not None and message.id in pinned)


def _current_turn(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """The last human message and everything after it."""
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], HumanMessage):
            return list(messages[index:])
    return list(messages)


def _capped(message: AnyMessage, tokens: int) -> AnyMessage:
    if not isinstance(message, ToolMessage) or not isinstance(message.content, str):
        return message
    limit = max(1, tokens) * CHARS_PER_TOKEN
    text = message.content
    if len(text) <= limit:
        return message
    note = (
        f"\n\n[cut to fit the model's context: the result had {len(text):,} characters; "
        "ask for less: a line range, a narrower search or folder]"
    )
    return message.model_copy(update={"content": text[:limit] + note})
