"""What the app needs to know to show the mediator: several named participants, a panel of
speaker, audience and channel bars, and a scripted demo. Imports nothing but the profile types."""

from __future__ import annotations

from agents.profile import ProfileTraits
from agents.shared_space import DEFAULT_PARTICIPANTS

TRAITS = ProfileTraits(
    participants=DEFAULT_PARTICIPANTS,
    private_messages=True,
    preview=False,  # a view shows each reader only what they may read: the whole space first
    panel="speakers",
    demo="agents.profiles.mediator.demo",
)
