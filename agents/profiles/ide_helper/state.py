"""The ide-helper's graph state: the shared message list plus the log of patch reviews."""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired

from agents.graph import AgentState


class IdeHelperState(AgentState):
    """``messages`` (from :class:`~agents.graph.AgentState`) holds the conversation; a
    ``propose_edit`` result carries its patch in ``ToolMessage.artifact["patch"]`` until the
    review node settles it. ``reviews`` accumulates one entry per settled patch
    (``{"patch_id", "path", "decision", "status", "message"}``) for the turn's record.
    """

    reviews: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
