"""The shared channel's guard: a post for everyone must not repeat anyone's private words.

A model that is hostile or careless can quote what one participant told it privately in a
post that everyone reads. Before :func:`held_for` lets a post through, it compares the post
with every participant's private exchange on the branch (their private messages and, for a
post to everyone, what the mediator said to them alone): a post that contains a whole sentence of one (of
at least :data:`SENTENCE_WORDS` words) or any run of :data:`RUN_WORDS` consecutive words of
one is held. The guarantee holds for every transformation of a quotation that keeps its
letters and digits in order:

- words compare without regard to case, spacing, punctuation, underscores, compatibility
  forms (fullwidth letters, ligatures: NFKC) and invisible format characters (zero-width
  spaces and joiners, bidi marks), so re-spacing, re-capitalising or re-punctuating a quotation
  does not get it through;
- only letters and digits compare, whatever separates them (nothing, a dot between letters,
  a zero-width space inside a word), so ``l.o.s.t o-u-r`` or ``lostoursavings`` is caught;
- a quotation split across posts is caught: a post is checked together with the posts the
  same audience already received from the mediator (``before``), and held when a repeated run
  reaches into it.

What it does not catch is a paraphrase, a translation or a reordering: the mediator's own
instructions and the tool's manual ask it never to reveal private words, and the guard is the
floor under that, not a judge of meaning.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from agents.shared_space.marks import private_to_sender
from storage.models import MessageRecord

RUN_WORDS = 8
"""A post that shares this many consecutive words with a private message is held."""
SENTENCE_WORDS = 4
"""A private sentence at least this long, repeated whole, holds a post."""

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")


def _normal(text: str) -> str:
    """``text`` in compatibility form without invisible format characters."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.casefold().replace("’", "'") for word in _WORD.findall(_normal(text)))


def _letters(words: Sequence[str]) -> str:
    return "".join(words).replace("'", "")


def _quotable(private: str) -> set[str]:
    """The letters of every run of :data:`RUN_WORDS` words of ``private`` and of every
    sentence of at least :data:`SENTENCE_WORDS` words: what a post may not contain."""
    words = _words(private)
    runs = {_letters(words[i : i + RUN_WORDS]) for i in range(len(words) - RUN_WORDS + 1)}
    sentences = (_words(s) for s in _SENTENCE_END.split(private))
    return runs | {_letters(s) for s in sentences if len(s) >= SENTENCE_WORDS}


def repeats(post: str, private: str, before: str = "", known: str = "") -> bool:
    """Whether ``post`` repeats ``private``: the letters and digits of one of its sentences
    whole (of at least :data:`SENTENCE_WORDS` words) or of any :data:`RUN_WORDS` consecutive
    words of it, whatever separates them; with ``before`` (what the same audience already
    read), also one that starts there and ends in ``post``. A part of ``private`` that
    ``known`` (what everyone has read) holds too is no longer private."""
    new = _letters(_words(post))
    quotable = _quotable(private)
    if known:
        public = _letters(_words(known))
        quotable = {part for part in quotable if part not in public}
    if not new or not quotable:
        return False
    longest = max(map(len, quotable))
    said = _letters(_words(before))[-(longest - 1) :] + new if longest > 1 else new
    start = len(said) - len(new)
    for size in {len(part) for part in quotable}:
        for i in range(max(0, start - size + 1), len(said) - size + 1):
            if said[i : i + size] in quotable:
                return True
    return False


def private_messages(path: Iterable[MessageRecord]) -> list[MessageRecord]:
    """The user records of ``path`` that some participant may not read
    (:func:`~agents.shared_space.marks.private_to_sender`)."""
    return [
        record
        for record in path
        if record.role == "user" and record.sender and private_to_sender(record.meta)
    ]


def private_deliveries(path: Sequence[MessageRecord]) -> list[MessageRecord]:
    """What the mediator said to one participant alone on ``path`` (a private reply, a closing
    reply to whoever spoke), each as a record of that participant's private exchange: a reply
    to one person restates what they said, so it is theirs to share as much as their own
    words are."""
    from agents.shared_space.space import view_for

    return [
        MessageRecord(
            id=f"delivered:{line.record_id}",
            conversation_id=line.record_id,
            role="user",
            content=line.content,
            parent_id=None,
            depth=0,
            version=1,
            created_at=line.created_at,
            meta={"sender": line.visibility, "visibility": line.visibility},
        )
        for line in view_for(path, None)
        if line.kind in ("delivered", "reply") and line.is_private
    ]


def held_for(
    post: str, path: Iterable[MessageRecord], *, before: str = "", reader: str | None = None
) -> list[str]:
    """Whose private words ``post`` repeats (in the order they first spoke; empty: the post
    may go to its audience): their private messages, and for a post to everyone also what the
    mediator told them alone (:func:`private_deliveries`; between two private replies the
    mediator's own set phrases may recur). ``before`` is what the audience already read from
    the mediator; ``reader``, for a private reply, is its one reader, whose own words may be
    repeated to them."""
    records = list(path)
    said: list[tuple[MessageRecord, str]] = [(r, "") for r in private_messages(records)]
    if reader is None:  # a post for everyone: nothing said to one person alone goes there
        from agents.shared_space.space import shared_channel

        # what a private reply quotes of what everyone read is not private
        known = "\n".join(line.content for line in shared_channel(records))
        said += [(r, known) for r in private_deliveries(records)]
    whose: list[str] = []
    for record, known in said:
        sender = record.sender or ""
        if reader is not None and sender.casefold() == reader.casefold():
            continue
        if sender not in whose and repeats(post, record.content, before, known):
            whose.append(sender)
    return whose
