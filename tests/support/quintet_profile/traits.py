"""What the app needs to show the quintet profile: its settings section, its key and its
panel, each by name (imported when used)."""

from __future__ import annotations

from agents.profile import ProfileKey, ProfileSettings, ProfileTraits

NAME = "quintet"
KEY = "f7"
HERE = "tests.support.quintet_profile"

TRAITS = ProfileTraits(
    title="Quintet (tests)",
    description="Greets with a greeting from its settings and counts the messages.",
    settings=ProfileSettings(section="quintet", model=f"{HERE}.settings:QuintetSettings"),
    keys=(
        ProfileKey(
            command="Count the messages",
            description="Say how many messages the open conversation holds",
            handler=f"{HERE}.actions:count_messages",
            key=KEY,
        ),
    ),
    panel_lines=f"{HERE}.actions:panel_lines",
)
