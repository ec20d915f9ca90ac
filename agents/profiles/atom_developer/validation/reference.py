"""What ``validate_logic`` must answer is decided by the contract's reference implementation,
never by answers fixed in advance.

Level 2's fixed cases each name one rule of the contract, but code that knows them could
answer those calls and nothing else, and level 3 used to read only the kind that
``validate_logic`` reports on the sample's lines, not whether it matched them. So two kinds of
cases are judged against the reference implementation (:data:`REFERENCE_ATOMS`, the contract
written as code, which the safe stub ships):

- level 3's: one call per sample line with the spec's pattern and options, which must agree
  on ``is_match`` as well as on the kind the spec declares;
- level 2's generated calls (:func:`logic_calls`): a handful of texts and patterns of every
  kind, drawn afresh for every validation from a random source the checked code cannot see.

The reference runs in the sandbox as well, in its own run beside the atoms' (a spec's regex
is untrusted and may backtrack for ever). A case the reference could not answer is an error
of its level, never a pass: what was not checked is not valid.

Generated texts and patterns use letters, digits, spaces and ``-:=_.#`` only (plus ``*``
and ``|`` where they mean a wildcard or alternatives), and no blank alternative or one with
spaces around it, so that they ask nothing the contract leaves open (``?`` and ``[`` in a
wildcard, blank alternatives).
"""

from __future__ import annotations

import random
import re
from typing import Any

REFERENCE_ATOMS = '''def validate_logic(
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
"""The reference atoms B and C; the safe stub's are these."""

REFERENCE_CODE = "import re\nfrom typing import Dict, List, Optional\n\n\n" + REFERENCE_ATOMS
"""The module whose ``validate_logic`` is the reference (run in the sandbox, never here)."""

GENERATED_CALLS = 16
"""How many generated ``validate_logic`` calls level 2 makes in each validation: four of
each kind, each of those with one of the four combinations of options."""
_OPTIONS = tuple(
    {"default_match": match, "regex_mode": mode}
    for match in ("contains", "exact")
    for mode in ("search", "match")
)

_WORDS = ("error", "Error", "ERROR", "warn", "disk", "code", "ok", "a1", "b-2", "x:y", "k=v")
_FILLER = ("at", "on", "id_7", "#3", "v1.2", "500", "404", "0")


def _text(rng: random.Random) -> str:
    words = [rng.choice(_WORDS + _FILLER) for _ in range(rng.randint(1, 5))]
    return " ".join(words)


def _part_of(rng: random.Random, text: str) -> str:
    """A piece of ``text`` (a word, or a slice inside it), or a word it may not hold."""
    if text and rng.random() < 0.85:
        start = rng.randrange(len(text))
        piece = text[start : start + rng.randint(1, 8)].strip()
        if piece:
            return piece
    return rng.choice(_WORDS)


def _default(rng: random.Random, text: str) -> str:
    return text if rng.random() < 0.25 else _part_of(rng, text)


def _wildcard(rng: random.Random, text: str) -> str:
    shape = rng.randrange(4)
    left, right = _part_of(rng, text), _part_of(rng, text)
    return (f"{left}*", f"*{left}", f"*{left}*", f"{left}*{right}")[shape]


def _regex(rng: random.Random, text: str) -> str:
    word = re.escape(_part_of(rng, text))
    shape = rng.randrange(5)
    expression = (word, f"^{word}", f"{word}$", rf"{word}\s*\d+", f"(?i){word}")[shape]
    return f"regex:{expression}"


def _single(rng: random.Random, text: str) -> str:
    return rng.choice((_default, _wildcard, _regex))(rng, text)


def logic_calls(rng: random.Random, count: int = GENERATED_CALLS) -> list[dict[str, Any]]:
    """``count`` generated ``validate_logic`` calls: the kinds in turn, and for each kind the
    combinations of options in turn."""
    calls: list[dict[str, Any]] = []
    for index in range(count):
        text, kind = _text(rng), index % 4
        if kind == 3:
            parts = [_single(rng, text) for _ in range(rng.randint(2, 3))]
            pattern = "|".join(parts)
        else:
            pattern = (_default, _wildcard, _regex)[kind](rng, text)
        options = dict(_OPTIONS[(index // 4) % len(_OPTIONS)])
        calls.append({"atom": "validate_logic", "args": [text, pattern], "kwargs": options})
    return calls
