"""The safe stub: atoms that satisfy the contract and extract nothing, said plainly.

When no draft passes within the fixes allowed, the turn ends with this instead of code that
failed validation: ``extract_context`` finds no items (so a checker built on it reports
"nothing found" rather than crashing), ``validate_logic`` and ``check_existence`` are complete
reference implementations, and the spec is marked ``stub: true``.
"""

from __future__ import annotations

import yaml  # type: ignore[import-untyped]

from agents.profiles.atom_developer.validation.one_line import one_line

STUB_CODE = '''"""SAFE STUB (Architecture 10.2 fallback): extract_context extracts nothing yet.

No draft passed validation; replace extract_context before relying on this atom.
"""

import re
from typing import Dict, List, Optional


def extract_context(text: str, source_file: str) -> List[Dict]:
    """Atom A (STUB): finds no items; every item it would return is cast with str()."""
    items: List[Dict] = []
    return [dict(item, value=str(item.get('value'))) for item in items]


def validate_logic(
    text: str,
    pattern: str,
    parsed_fields: Optional[Dict] = None,
    default_match: str = 'contains',
    regex_mode: str = 'search',
) -> Dict:
    """Atom B: alternatives (|) > regex (regex:) > wildcard (*) > default."""
    value = str(text)
    if '|' in pattern:
        options = [p.strip() for p in pattern.split('|') if p.strip()]
        hit = next((p for p in options if validate_logic(value, p, None, default_match, regex_mode)['is_match']), None)
        reason = f'alternative {hit!r} matched' if hit is not None else 'no alternative matched'
        return {'is_match': hit is not None, 'reason': reason, 'kind': 'alternatives'}
    if pattern.startswith('regex:'):
        expression = pattern[len('regex:'):]
        if regex_mode == 'match':
            found = re.match(expression, value)
        else:
            found = re.search(expression, value)
        return {'is_match': found is not None, 'reason': f'regex {expression!r} ({regex_mode})', 'kind': 'regex'}
    if '*' in pattern:
        wildcard = '.*'.join(re.escape(part) for part in pattern.split('*'))
        matched = re.fullmatch(wildcard, value, re.S) is not None
        return {'is_match': matched, 'reason': f'wildcard {pattern!r}', 'kind': 'wildcard'}
    if default_match == 'exact':
        return {'is_match': value == pattern, 'reason': f'exact {pattern!r}', 'kind': 'default'}
    return {'is_match': pattern in value, 'reason': f'contains {pattern!r}', 'kind': 'default'}


def check_existence(items: List[Dict]) -> Dict:
    """Atom C: are there matching items? Passes the evidence through unchanged."""
    return {'is_match': bool(items), 'reason': f'{len(items)} item(s) found', 'evidence': items}
'''


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
