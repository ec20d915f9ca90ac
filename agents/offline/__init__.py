"""The embedded offline model: a small demo model that says plainly that it is one.

``OfflineChatModel`` is what weaver-tui runs on when no provider is configured, so every
feature (streaming, tool calls, each profile's graph) can be seen and tested with no network.
It does not read prompts: a profile declares, per graph node, a small function of that node's
structured state (:class:`OfflineTurn` in, :class:`Reply` out); everything else gets one
honest sentence on what it cannot do and how to connect a real model.
"""

from agents.offline.model import MODEL_NAME, OfflineChatModel
from agents.offline.reply import PlannedCall, Reply
from agents.offline.turn import OfflineSteps, OfflineTurn, cannot

__all__ = [
    "MODEL_NAME",
    "OfflineChatModel",
    "OfflineSteps",
    "OfflineTurn",
    "PlannedCall",
    "Reply",
    "cannot",
]
