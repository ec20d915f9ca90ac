"""Paper-pilot's wiring of the shared role models (:mod:`agents.role_models`): which of its
steps is which role, and where a fallback is said (the line of the stage whose call found the
role's model failing, in the tool pane).
The synthesis always runs on the turn's model. The trace names the model of each call.
"""

from __future__ import annotations

from collections.abc import Mapping

from agents.graph import emit_status
from agents.profile import TurnContext
from agents.role_models import RoleCalls, turn_role_calls

ROLE_OF_STEP: Mapping[str, str] = {
    "route": "router",
    "critic": "critic",
    "plan": "structured",
    "replan": "structured",
    "react": "structured",
    "retry_refine": "structured",
}
"""Which role answers each stage that asks for a structured answer."""


_LINE_OF_STEP: Mapping[str, str] = {"retry_refine": "retry"}
"""The tool pane's line of a step, where it is not the step's own name."""


def _say(step: str, sentence: str) -> None:
    emit_status(_LINE_OF_STEP.get(step, step), sentence, "error")


def role_calls(context: TurnContext) -> RoleCalls:
    """The turn's role calls, their fallbacks said on the failing stage's line."""
    return turn_role_calls(context, _say)
