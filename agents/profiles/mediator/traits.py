"""What the app needs to know to show the mediator: several named participants, a panel of
speaker, audience and channel bars, and a scripted demo. Imports nothing but the profile types."""

from __future__ import annotations

from agents.profile import ProfileTraits
from agents.shared_space import DEFAULT_PARTICIPANTS

WELCOME = (
    "A neutral mediator for several people. F2 picks who speaks, F8 whether you say it to the "
    'mediator only or to everyone, F3 which view you see; the palette\'s "Play mediator demo" '
    "shows a session."
)

TRAITS = ProfileTraits(
    title="Mediator",
    description="A neutral mediator for several people: private and shared replies.",
    welcome=WELCOME,
    participants=DEFAULT_PARTICIPANTS,
    seats=True,
    private_messages=True,
    preview=False,  # a view shows each reader only what they may read: the whole space first
    panel="speakers",
    demo="agents.profiles.mediator.demo",
)
