"""Continuing a reply from where it stops (after the user edited it, or it was cut short).

The model gets the conversation up to the reply's question, the reply as its own last
message, and one request to go on from there. The new reply starts with that text and the
continuation is streamed after it, as a new version beside the one it continues.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

CONTINUE_PROMPT = (
    "Continue your last message exactly where it stops. Do not repeat any of it and do not "
    "comment on it: write only what comes next."
)


def continuation_messages(history: list[AnyMessage], reply_text: str) -> list[AnyMessage]:
    """``history`` (ending with the user's question) followed by the reply and the request."""
    return [*history, AIMessage(content=reply_text), HumanMessage(content=CONTINUE_PROMPT)]
