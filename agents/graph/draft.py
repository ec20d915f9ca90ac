"""An answer that streams as a draft: shown while it is written, settled by a later check.

A node writes the reply through a model call tagged :data:`ANSWER_TAG` (its tokens reach the
chat as they come) after :func:`emit_draft` ``("draft")``; a check that judges it afterwards
says how it stands with ``emit_draft("rejected" | "checked" | "unchecked", note)``. The runtime
turns each payload into an ``AnswerDraft`` event and keeps the state on the reply's record
(``meta["check"]``), so a reply cut short mid-draft stays marked as one. A second ``draft``
takes back the text streamed before it (a rejected draft): the retry's text replaces it.
"""

from __future__ import annotations

from typing import Final, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer

ANSWER_TAG: Final = "weaver:answer"
"""A model call with this tag streams into the reply, whatever node makes it."""
DRAFT_KEY: Final = "draft"
"""The custom-stream payload key of a draft's state."""
DRAFT_CALL: RunnableConfig = {"tags": [ANSWER_TAG]}
"""The config of the model call that writes a draft."""

DraftState = Literal["draft", "rejected", "checked", "unchecked"]


def emit_draft(state: DraftState, note: str = "") -> None:
    """Say how the reply's draft stands; a no-op outside a streaming graph run."""
    try:
        writer = get_stream_writer()
    except RuntimeError:
        return
    writer({DRAFT_KEY: state, "note": note})
