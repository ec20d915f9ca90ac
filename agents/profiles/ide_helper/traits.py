"""What the app needs to know to show the ide-helper: it works on a project folder and shows
it (with the patches waiting for review) in a panel. Imports nothing but the profile types."""

from __future__ import annotations

from agents.profile import ProfileTraits

TRAITS = ProfileTraits(project_root=True, panel="project", patch_review=True)
