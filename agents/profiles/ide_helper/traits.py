"""What the app needs to know to show the ide-helper: it works on a project folder and shows
it (with the patches waiting for review) in a panel. Imports nothing but the profile types."""

from __future__ import annotations

from agents.profile import ProfileTraits

WELCOME = (
    "Ask about the code in this project: ask for its files, name a file to read it, search for "
    'a term you put in backticks or double quotes (`load config` or "load config") or a name '
    "like load_config, or ask for a change. A patch the helper "
    "proposes waits for your review (a accepts, r rejects, F4 reopens it)."
)

TRAITS = ProfileTraits(
    title="IDE helper",
    description="Reads and searches this project's code; proposes patches you review.",
    project_root=True,
    panel="project",
    patch_review=True,
    welcome=WELCOME,
)
