"""Template atoms for: Extract the error code when it is 500 or 503 (drafted by the offline demo model)."""

import re
from typing import Dict, List, Optional


KEY = 'code'


def extract_context(text: str, source_file: str) -> List[Dict]:
    """Atom A: the word after `code` on each line that has it (a template)."""
    items: List[Dict] = []
    for line_number, line in enumerate(str(text).splitlines(), start=1):
        at = line.lower().find(KEY)
        words = line[at + len(KEY):].lstrip('=: "\'').split() if at >= 0 else []
        value = words[0].strip('",;}') if words else ''
        if not value:
            continue
        items.append({
            'value': str(value),
            'source_file': str(source_file),
            'line_number': line_number,
            'matched_content': line.strip(),
            'parsed_fields': {KEY: str(value)},
        })
    return items


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
