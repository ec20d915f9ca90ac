"""atom-developer's rules for the offline model: the draft and reflect stages, played from
their input.

The draft stage's message names the intent and a log sample: the generator picks the fields
the intent names (or the sample carries), the pattern kind the intent asks for, and writes the
atoms and the spec. The reflect stage's message carries the current code, spec and the
validator's errors: each error is fixed by what it names (:mod:`.offline_fixes`), so the loop
runs for real and a sample that cannot satisfy the intent ends in the safe stub.
"""

from __future__ import annotations

import re

from agents.offline.conversation import Conversation
from agents.offline.reply import Reply
from agents.profiles.atom_developer import prompts
from agents.profiles.atom_developer.generator import generate
from agents.profiles.atom_developer.offline_fixes import fix_draft
from agents.profiles.atom_developer.request import fenced, fences

_LABEL = re.compile(r"^(?P<label>Intent|Log sample[^:]*|Current code|Current spec):", re.M)


def _labelled(text: str) -> dict[str, str]:
    """``Intent: ...`` and the fenced block after each of the other labels."""
    found: dict[str, str] = {}
    intent = re.search(r"^Intent:\s*(.*)$", text, re.M)
    found["intent"] = intent.group(1).strip() if intent else ""
    blocks = fences(text)
    for match in _LABEL.finditer(text):
        label = match.group("label").split(" (")[0].lower()
        after = [body for _, body, (start, _) in blocks if start > match.end()]
        if label != "intent" and after:
            found[label] = after[0]
    sample = found.get("log sample", "")
    found["log sample"] = "" if sample.strip() == "(no sample given)" else sample
    return found


def _errors(text: str) -> list[str]:
    _, _, tail = text.partition("Validation errors:\n")
    lines = []
    for line in tail.splitlines():
        if not line.startswith("- "):
            break
        lines.append(line[2:].strip())
    return [line for line in lines if line != "(none)"]


def _draft(text: str) -> Reply:
    fields = _labelled(text)
    atom = generate(fields["intent"], fields["log sample"])
    return Reply(
        text="\n\n".join(
            [
                fenced(atom.code, "python"),
                fenced(atom.spec, "yaml"),
                f"Extracts {', '.join(atom.fields)} with `{atom.value_field}` as the value; "
                f"the spec's pattern `{atom.pattern}` is of kind {atom.kind}.",
            ]
        )
    )


def _reflect(text: str) -> Reply:
    fields = _labelled(text)
    code = fields.get("current code", "")
    spec = fields.get("current spec", "")
    fixed = fix_draft(
        fields["intent"],
        fields["log sample"],
        "" if code.strip() == "# (no code)" else code,
        "" if spec.strip() == "# (no spec)" else spec,
        _errors(text),
    )
    changes = "\n".join(f"- {change}" for change in fixed.changes)
    return Reply(
        text="\n\n".join([fenced(fixed.code, "python"), fenced(fixed.spec, "yaml"), changes])
    )


def decide(conv: Conversation) -> Reply | None:
    """The stage reply for a draft or reflect request; ``None`` for anything else."""
    text = conv.user_text
    if text.startswith(prompts.DRAFT_STAGE):
        return _draft(text)
    if text.startswith(prompts.REFLECT_STAGE):
        return _reflect(text)
    return None


RULES = (decide,)
