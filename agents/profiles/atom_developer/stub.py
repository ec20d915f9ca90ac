"""The safe stub: atoms that satisfy the contract and extract nothing, said plainly.

When no draft passes within the fixes allowed, the turn ends with this instead of code that
failed validation: ``extract_context`` finds no items (so a checker built on it reports
"nothing found" rather than crashing), ``validate_logic`` and ``check_existence`` are the contract's
reference implementations (``validation/reference.py``), and the spec is marked ``stub: true``.
"""

from __future__ import annotations

import yaml  # type: ignore[import-untyped]

from agents.profiles.atom_developer.validation.one_line import one_line
from agents.profiles.atom_developer.validation.reference import REFERENCE_ATOMS

STUB_CODE = (
    '''"""SAFE STUB (Architecture 10.2 fallback): extract_context extracts nothing yet.

No draft passed validation; replace extract_context before relying on this atom.
"""

import re
from typing import Dict, List, Optional


def extract_context(text: str, source_file: str) -> List[Dict]:
    """Atom A (STUB): finds no items; every item it would return is cast with str()."""
    items: List[Dict] = []
    return [dict(item, value=str(item.get('value'))) for item in items]


'''
    + REFERENCE_ATOMS
)

STUB_DESCRIPTION_CHARS = 100


def stub_spec(intent: str) -> str:
    """The stub's spec: it names the intent and says it is a stub. Whatever the user's words
    hold (quotes, colons, YAML syntax, control characters, lone surrogates), they are only
    the description's text: the spec reads back as the stub's own pattern and kind, so the
    fallback's check never fails on what the user typed."""
    description = one_line(" ".join(intent.split()))[:STUB_DESCRIPTION_CHARS]
    spec = {
        "item_spec": {
            "name": "safe_stub",
            "description": f"STUB for: {description}",
            "stub": True,
            "atom": "extract_context",
            "pattern": "regex:.+",
            "kind": "regex",
            "default_match": "contains",
            "regex_mode": "search",
        }
    }
    return str(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=2**16))
