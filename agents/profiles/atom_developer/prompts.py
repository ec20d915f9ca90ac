"""The instructions of atom-developer's stages. The system prompt (``prompts/system.md``, which
the user may override) states the contract; each stage's message is labelled text
(``Stage:``, ``Intent:``, ``Log sample:``, ``Current code:``, ``Validation errors:``). The
offline demo reads none of it: it answers each node from the graph state (:mod:`.offline`)."""

from __future__ import annotations

from agents.profiles.atom_developer.request import fenced

DRAFT_STAGE = "Stage: draft"
REFLECT_STAGE = "Stage: reflect"

ANSWER_FORMAT = (
    "Answer with the complete Python code in one ```python block and the complete YAML spec "
    "in one ```yaml block, then at most three short lines on what you did."
)


def draft_message(
    intent: str, sample: str, previous_code: str = "", previous_spec: str = "", user_spec: str = ""
) -> str:
    """The draft stage's request: write the atoms and the spec for the intent and sample (a
    follow-up also gets the draft it changes; a spec the user gave is the one to implement)."""
    earlier = []
    if user_spec.strip():
        earlier = [
            "The user's spec (implement it; it is kept as it is):",
            fenced(user_spec, "yaml"),
        ]
    if previous_code.strip():
        earlier += [
            "Previous code (the draft this request changes):",
            fenced(previous_code, "python"),
            "Previous spec:",
            fenced(previous_spec or "# (no spec)", "yaml"),
        ]
    return "\n".join(
        [
            DRAFT_STAGE,
            f"Intent: {intent}",
            f"Log sample ({len(sample.splitlines())} lines):",
            fenced(sample or "(no sample given)", "text"),
            *earlier,
            "Write the three atoms (extract_context, validate_logic, check_existence) and the "
            "YAML item spec whose `pattern` drives them for this intent; extract_context must "
            "find the wanted items in the sample.",
            ANSWER_FORMAT,
        ]
    )


def reflect_message(
    intent: str, sample: str, code: str, spec: str, errors: list[str], fix: int, fixes: int
) -> str:
    """The reflect stage's request: fix every error the validator reported."""
    listed = "\n".join(f"- {error}" for error in errors) or "- (none)"
    return "\n".join(
        [
            f"{REFLECT_STAGE} (fix {fix} of {fixes})",
            f"Intent: {intent}",
            f"Log sample ({len(sample.splitlines())} lines):",
            fenced(sample or "(no sample given)", "text"),
            "Current code:",
            fenced(code or "# (no code)", "python"),
            "Current spec:",
            fenced(spec or "# (no spec)", "yaml"),
            "Validation errors:",
            listed,
            "Fix every error above without breaking the rest of the contract. Return the whole "
            "corrected code and spec, not a diff.",
            ANSWER_FORMAT,
        ]
    )
