"""The embedded offline model: a deterministic, tool-calling, streaming chat model.

``OfflineChatModel`` is what weaver-tui runs on when no provider key is configured, so every
feature (streaming, tool calls, each profile's behaviour) can be seen and tested with no
network. Its replies come from small rule modules under :mod:`agents.offline.rules`, keyed on
tool names, and always follow the conversation they are given.
"""

from agents.offline.model import MODEL_NAME, OfflineChatModel

__all__ = ["MODEL_NAME", "OfflineChatModel"]
