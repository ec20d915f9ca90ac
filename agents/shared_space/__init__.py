"""A shared space of several people and one agent: who said what to whom, and what each of
them may read (the speakers' panel shows it). The mediator profile works in one.

Importing this package costs nothing (profile traits read its default participants).
"""

DEFAULT_PARTICIPANTS: tuple[str, ...] = ("Alex", "Sam")
"""Who a space holds when it names nobody (the couple of the financial-counselling space)."""

SHARED = "shared"
"""The visibility of what everyone in the space sees (here, so that reading it imports no
pydantic: opening a conversation needs it, the participant's event model does not)."""
