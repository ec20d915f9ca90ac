"""What the app needs to know to show atom-developer: it works on a project folder (samples
are read from it, artifacts saved into it); the tool pane names the loop's stages, and a
reply's badge says whether it is valid, after how many fixes, or the stub; ``weaver-tui atom``
is its verb. Imports nothing but the profile types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.profile import ProfileTraits, ProfileVerb


def reply_badge(meta: Mapping[str, Any]) -> str | None:
    """``valid · 1 fix``, ``valid``, ``safe stub``, ``not checked``: what the loop ended
    with. Only a verdict the checks established reads as one: code that was never run is
    ``not checked``, a stub whose own check failed is ``stub · not valid``."""
    trace = meta.get("atom_developer")
    if not isinstance(trace, Mapping):
        return None
    if trace.get("unchecked"):
        return "not checked"
    if trace.get("stub"):
        checked = trace.get("stub_valid", trace.get("valid"))  # records before stub_valid
        return "safe stub" if checked else "stub · not valid"
    fixes = int(trace.get("fixes") or 0)
    verdict = "valid" if trace.get("valid") else "not valid"
    return f"{verdict} · {fixes} fix{'es' if fixes != 1 else ''}" if fixes else verdict


WELCOME = (
    "Say what to pull out of a log line (the intent), then paste a few sample lines in a fenced "
    "block (``` on the lines before and after) or name a file under the project root. You get "
    "Python atoms and their YAML spec, checked on the samples; Ctrl+S saves them."
)

ATOM_VERB = ProfileVerb(
    name="atom",
    help="atom-developer's atoms: check FILE.py [--spec FILE.yaml] [--sample FILE] [--json]",
    handler="agents.profiles.atom_developer.commands:ATOM_COMMAND",
)

TRAITS = ProfileTraits(
    title="Atom Developer",
    description="Turns a log-parsing intent into checked atoms and a YAML spec.",
    welcome=WELCOME,
    continue_reply=False,
    project_root=True,
    stages={
        "read_request": "request",
        "draft": "draft",
        "validate": "validator",
        "reflect": "reflect",
        "fallback": "fallback",
    },
    reply_badge=reply_badge,
    commands=(ATOM_VERB,),
)
