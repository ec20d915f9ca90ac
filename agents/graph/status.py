"""Stage lines ("Running compliance tests ...") from inside a node, via the custom stream.

The runtime maps every payload carrying :data:`STATUS_KEY` to a ``NodeStatus`` event.
"""

from __future__ import annotations

from typing import Literal

from langgraph.config import get_stream_writer

STATUS_KEY = "node"


def emit_status(
    node: str, text: str, state: Literal["running", "done", "error"] = "running"
) -> None:
    """Report a stage line for the tool-status pane; a no-op outside a streaming graph run."""
    try:
        writer = get_stream_writer()
    except RuntimeError:
        return
    writer({STATUS_KEY: node, "text": text, "state": state})
