"""atom-developer's offline demo: a template atom drafted from the intent and the sample.

The draft node's step reads the graph state (``user_intent``, ``log_snippet``) and picks a key:
the first word of the intent that the sample writes as ``word=`` or ``word:``, else the first
that the sample contains. The template's ``extract_context`` takes the word after that key on
each line; the spec's pattern lists the intent's numbers that the sample holds (alternatives),
else accepts any value. The reflect node cannot fix code offline: it says so and hands the code
back unchanged, so a draft that fails ends in the safe stub.
"""

from __future__ import annotations

import re
from pathlib import Path

from agents.offline import OfflineSteps, OfflineTurn, Reply, cannot
from agents.offline.text import fenced
from agents.profiles.atom_developer.request_check import earlier_work
from agents.profiles.atom_developer.stub import STUB_CODE

_ATOMS_B_AND_C = STUB_CODE[STUB_CODE.index("\n\ndef validate_logic") :]
_EXTRACT = '''

KEY = {key!r}


def extract_context(text: str, source_file: str) -> List[Dict]:
    """Atom A: the word after `{key}` on each line that has it (a template)."""
    items: List[Dict] = []
    for line_number, line in enumerate(str(text).splitlines(), start=1):
        at = line.lower().find(KEY)
        words = line[at + len(KEY):].lstrip('=: "\\'').split() if at >= 0 else []
        value = words[0].strip('",;}}') if words else ''
        if not value:
            continue
        items.append({{
            'value': str(value),
            'source_file': str(source_file),
            'line_number': line_number,
            'matched_content': line.strip(),
            'parsed_fields': {{KEY: str(value)}},
        }})
    return items
'''


def _words(text: str) -> list[str]:
    return [w for w in dict.fromkeys(t.strip(".,:;!?\"'`()").lower() for t in text.split()) if w.isalnum()]  # fmt: skip


def choose_key(intent: str, sample: str) -> str | None:
    """The intent's word the sample writes as a key (``code`` for ``code=500``), else one the
    sample contains; ``None`` when the intent names nothing the sample holds."""
    lower = sample.lower()
    words = [w for w in _words(intent) if len(w) > 2 and not w.isdigit()]
    keyed = [w for w in words if f"{w}=" in lower or f"{w}:" in lower]
    present = [w for w in words if w in _words(sample)]
    found = keyed or present
    return found[0] if found else None


NEEDS = (
    "an intent that names what to pull out of the log (a field such as `code` in "
    "`code=500`), and a few sample log lines holding it, in a fenced block"
)


def template(intent: str, sample: str, key: str) -> tuple[str, str]:
    """(code, spec) of the template atom for ``intent`` on ``sample``, keyed on ``key``."""
    values = [w for w in _words(intent) if w.isdigit() and w in _words(sample.replace("=", " "))]
    pattern = "|".join(values) if values else "regex:.+"
    printable = "".join(c for c in " ".join(intent.split()) if c.isprintable())
    summary = printable[:90].replace('"', "'").replace("\\", "/")
    title = re.sub("_+", "_", summary)  # a double underscore in the code fails level 1
    head = f'"""Template atoms for: {title} (drafted by the offline demo model)."""\n\n'
    code = head + "import re\nfrom typing import Dict, List, Optional\n" + _EXTRACT.format(key=key)
    description = summary.replace("'", "''")
    spec = (
        f"item_spec:\n  name: {key}_atom\n  description: '{description}'\n  atom: extract_context\n"
        f"  value_field: {key}\n  pattern: '{pattern}'\n"
        f"  kind: {'alternatives' if values else 'regex'}\n  default_match: contains\n  regex_mode: search\n"
    )  # fmt: skip
    return code + _ATOMS_B_AND_C, spec


def draft(turn: OfflineTurn) -> Reply:
    """A template atom keyed on the intent's word the sample holds; with no such word (an
    intent that names nothing in the sample, or no sample), what the demo needs instead."""
    intent = str(turn.state.get("user_intent", ""))
    sample = str(turn.state.get("log_snippet", ""))
    key = choose_key(intent, sample) if sample.strip() else None
    if key is None:
        return Reply(text=cannot("draft an atom from this message", f"I need {NEEDS}."))
    code, spec = template(intent, sample, key)
    note = "A template atom from the offline demo model: it takes the word after the key it found."
    return Reply(text="\n\n".join([fenced(code, "python"), fenced(spec, "yaml"), note]))


def reflect(turn: OfflineTurn) -> Reply:
    """Hands the code back unchanged, saying why."""
    code = str(turn.state.get("generated_code", ""))
    spec = str(turn.state.get("pseudo_contract", ""))
    note = cannot("fix code from the validator's errors", "The code is unchanged.")
    return Reply(text="\n\n".join([fenced(code, "python"), fenced(spec, "yaml"), note]))


def read_request(turn: OfflineTurn) -> Reply:
    """Whether a message with no sample or code of its own asks for atom work. The demo cannot
    read what a message asks for; from the branch's structure it can tell a follow-up: earlier
    atom work on this branch (a draft or a sample) makes it one. Otherwise the profile's guide
    says what it needs."""
    messages = list(turn.state.get("messages") or [])
    root = getattr(turn.context, "project_root", None)
    earlier = earlier_work(messages[:-1], root if isinstance(root, Path) else None)
    return turn.answer({"asks_for_atom": earlier.found})


STEPS: OfflineSteps = {"read_request": read_request, "draft": draft, "reflect": reflect}
"""Registered as the profile's ``offline``."""
