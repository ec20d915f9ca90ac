"""The shared channel's guard: a post for everyone must not repeat anyone's private words.

A model that is hostile or careless can quote what one participant told it privately in a
post that everyone reads. Before :func:`held_for` lets a post through, it compares the post
with every private message of the branch: a post that contains a whole sentence of one (of
at least :data:`SENTENCE_WORDS` words) or any run of :data:`RUN_WORDS` consecutive words of
one is held. Words compare without regard to case, spacing or punctuation, so re-spacing or
re-capitalising a quotation does not get it through.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from agents.shared_space.marks import is_private
from storage.models import MessageRecord

RUN_WORDS = 8
"""A post that shares this many consecutive words with a private message is held."""
SENTENCE_WORDS = 4
"""A private sentence at least this long, repeated whole, holds a post."""

_WORD = re.compile(r"\w+(?:['’]\w+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.casefold().replace("’", "'") for word in _WORD.findall(text))


def _runs(words: Sequence[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


def _contains(words: Sequence[str], part: Sequence[str]) -> bool:
    size = len(part)
    return any(tuple(words[i : i + size]) == tuple(part) for i in range(len(words) - size + 1))


def repeats(post: str, private: str) -> bool:
    """Whether ``post`` repeats ``private`` verbatim: one of its sentences whole (of at least
    :data:`SENTENCE_WORDS` words) or any :data:`RUN_WORDS` consecutive words of it."""
    said = _words(post)
    if _runs(said, RUN_WORDS) & _runs(_words(private), RUN_WORDS):
        return True
    sentences = (_words(s) for s in _SENTENCE_END.split(private))
    return any(len(s) >= SENTENCE_WORDS and _contains(said, s) for s in sentences)


def private_messages(path: Iterable[MessageRecord]) -> list[MessageRecord]:
    """The user records of ``path`` that only their sender (and the mediator) may read."""
    return [
        record
        for record in path
        if record.role == "user" and record.sender and is_private(record.meta.get("visibility"))
    ]


def held_for(post: str, path: Iterable[MessageRecord]) -> list[str]:
    """Whose private words ``post`` repeats (in the order they first spoke; empty: the post
    may go to everyone)."""
    whose: list[str] = []
    for record in private_messages(path):
        sender = record.sender or ""
        if sender not in whose and repeats(post, record.content):
            whose.append(sender)
    return whose
