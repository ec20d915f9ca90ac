"""The names of the mediator's actions (each also its tool's name), without their models.

Reading who a record delivered words to needs only these names; the pydantic models of the
actions (:mod:`agents.shared_space.actions`) load where a tool call is parsed, so opening a
conversation imports no pydantic.
"""

from __future__ import annotations

from typing import Final

REPLY_PRIVATELY: Final = "reply_privately"
POST_TO_SHARED: Final = "post_to_shared"
PROPOSE_STATEMENT: Final = "propose_statement"
REVISE_STATEMENT: Final = "revise_statement"
SET_AGENDA: Final = "set_agenda"
