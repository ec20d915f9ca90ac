"""What the provider made a model call do (wait and try again) reaches an ACP client as a
thought, as the tool pane and ``ask``'s stderr show it."""

from __future__ import annotations

from agents.providers.retried_call import PROVIDER_STATUS_NODE
from agents.runtime.events import NodeStatus
from weaver_tui.core.acp_agent.turn_updates import TurnUpdates


def test_a_retry_line_is_sent_as_a_thought_whatever_its_state() -> None:
    updates = TurnUpdates({"route": "Routing"})
    for state in ("running", "done", "error"):
        event = NodeStatus(PROVIDER_STATUS_NODE, "rate limited, retrying in 2 s", state)
        sent = list(updates.updates(event))
        assert len(sent) == 1
        assert sent[0].session_update == "agent_thought_chunk"
        assert sent[0].content.text == "rate limited, retrying in 2 s"
