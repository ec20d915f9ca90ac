"""The citation audit: a check of a written answer against its numbered sources that this code
runs itself, whatever the model or its critic said.

The answer is split into sentences. A sentence that states something (not a heading, a question
or a short transition) must cite; each citation must name a source that exists and shares the
sentence's key terms (words beyond stop words, compared by their first letters); the numbers
and named things the sentence states must be in the sources it cites; and every thing the
question named must be covered by some cited source. A sentence that repeats a fact the user
learned before (recalled from memory, itself kept only after an audit) needs no citation.

The guarantee, for every answer and every set of sources: a sentence is ``supported`` only when
the check above held for it here, and an answer ``passes`` only when at least one sentence is
supported and none is unsupported, uncited, or leaves a named thing uncovered. Nothing the model
writes (a verdict, a score, a claim that it checked) can make either true.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from agents.profiles.paper_pilot.knowledge.index import query_terms

Status = Literal["supported", "unsupported", "uncited", "prior", "not a claim"]

STEM = 5
"""Key terms are compared by their first letters ("matrices" and "matrix" are one term)."""
SUPPORT_SHARE = 0.5
"""The share of a sentence's key terms its cited sources must hold."""
MIN_SHARED = 2
"""The key terms each cited source must share with the sentence (all, for a shorter one)."""
PRIOR_OVERLAP = 0.8
"""Share of words a sentence has in common with a recalled fact to count as repeating it."""

CITATION = re.compile(r"\[(\d+)\]")
_GROUPED = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)+)\]")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*%?")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"')\]*_])\s+")
_ABBREVIATIONS = ("al.", "e.g.", "i.e.", "vs.", "cf.", "fig.", "eq.", "approx.", "etc.")
_LEADING_CITATIONS = re.compile(r"^(?:\[\d+\][\s.,;]*)+")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@dataclass(frozen=True, slots=True)
class SentenceAudit:
    """One sentence of the answer, as written, with what the audit found."""

    text: str
    status: Status
    cites: tuple[int, ...] = ()
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "sentence": self.text,
            "status": self.status,
            "cites": list(self.cites),
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Audit:
    """The audit of one answer: each sentence's status, and the named things no cited source
    covers."""

    sentences: tuple[SentenceAudit, ...]
    uncovered: tuple[str, ...] = ()

    @property
    def supported(self) -> list[SentenceAudit]:
        return [s for s in self.sentences if s.status == "supported"]

    @property
    def failing(self) -> list[SentenceAudit]:
        return [s for s in self.sentences if s.status in ("unsupported", "uncited")]

    @property
    def passed(self) -> bool:
        return bool(self.supported) and not self.failing and not self.uncovered

    def failures(self) -> list[str]:
        """One line per failure, for the writer to mend and the trace to show."""
        lines = [f"{s.status}: {s.text[:160]} ({s.reason})" for s in self.failing]
        lines += [f"no cited source covers {name}" for name in self.uncovered]
        if not self.supported and not lines:
            lines.append("no sentence cites a source that supports it")
        return lines

    def as_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "supported": len(self.supported),
            "failing": len(self.failing),
            "uncovered": list(self.uncovered),
            "sentences": [s.as_dict() for s in self.sentences],
        }


def stems(text: str) -> set[str]:
    """The key terms of ``text``: its words beyond stop words, each by its first letters."""
    return {t[:STEM] for t in query_terms(text) if not t[0].isdigit()}


def numbers_in(text: str) -> set[str]:
    return {n.rstrip("%").replace(",", "") for n in _NUMBER.findall(text)}


def named_things(sentence: str) -> list[str]:
    """What a sentence names: words with a capital past their first letter or a digit inside
    (``LoRA``, ``GPT-4``, ``QLoRA``), and capitalised words other than the sentence's first."""
    found = []
    for position, word in enumerate(_WORD.findall(sentence)):
        inner = any(c.isupper() or c.isdigit() for c in word[1:])
        if (word[0].isupper() and (inner or position > 0)) or (word[0].islower() and inner):
            found.append(word)
    return found


def _flat(text: str) -> str:
    return re.sub(r"[\s_-]+", "", text.casefold())


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` (case, spaces, hyphens and underscores ignored)."""
    flat = _flat(name)
    return bool(flat) and flat in _flat(text)


def normalize_citations(answer: str) -> str:
    """``[1, 2]`` and ``[1; 2]`` written as ``[1][2]``: the one form the audit, the numbering
    and the Sources read."""
    return _GROUPED.sub(lambda m: "".join(f"[{n}]" for n in re.findall(r"\d+", m.group(1))), answer)  # fmt: skip


def split_sentences(answer: str) -> list[str]:
    """The answer's sentences, in order: each line (a bullet's marker dropped) split after
    ``.``, ``!`` or ``?``; a citation written after the full stop stays with its sentence, and
    ``et al.``, ``e.g.`` and their like do not end one."""
    sentences: list[str] = []
    for line in answer.splitlines():
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        pieces: list[str] = []
        for piece in _SENTENCE_END.split(line):
            piece = piece.strip()
            leading = _LEADING_CITATIONS.match(piece)
            if pieces and leading:
                pieces[-1] = f"{pieces[-1]} {leading.group(0).strip()}"
                piece = piece[leading.end() :].strip()
            if not piece:
                continue
            if pieces and pieces[-1].lower().endswith(_ABBREVIATIONS):
                pieces[-1] = f"{pieces[-1]} {piece}"
            else:
                pieces.append(piece)
        sentences.extend(pieces)
    return sentences


def _is_claim(sentence: str, bare: str) -> bool:
    """A sentence that states something: not a heading, a label ending in a colon, a question,
    or a transition (fewer than two key terms, no number, nothing named)."""
    if sentence.startswith("#") or bare.endswith((":", "?")):
        return False
    if re.fullmatch(r"\*\*[^*]+\*\*:?", bare):
        return False
    return len(stems(bare)) >= 2 or bool(numbers_in(bare)) or bool(named_things(bare))


def _chunk_text(chunk: Mapping[str, Any]) -> str:
    return " ".join(str(chunk.get(k) or "") for k in ("title", "section", "text"))


def repeats_prior(sentence: str, prior: Sequence[str]) -> bool:
    """Whether ``sentence`` says again one of the facts in ``prior``: most of its words are
    the fact's, and it states no key term, number or named thing the fact does not (a fact
    with one number or name changed is a new claim, and must cite)."""
    bare = CITATION.sub(" ", sentence)
    words = set(re.findall(r"[a-z0-9]+", bare.lower()))
    for fact in prior:
        other = set(re.findall(r"[a-z0-9]+", fact.lower()))
        if not words or len(words & other) / max(len(words | other), 1) < PRIOR_OVERLAP:
            continue
        same_terms = stems(bare) <= stems(fact) and numbers_in(bare) <= numbers_in(fact)
        if same_terms and all(mentions(fact, name) for name in named_things(bare)):
            return True
    return False


def audit_sentence(
    sentence: str, chunks: Sequence[Mapping[str, Any]], prior: Sequence[str] = ()
) -> SentenceAudit:
    """One sentence against the sources it cites (``chunks``, numbered from 1)."""
    cites = tuple(dict.fromkeys(int(n) for n in CITATION.findall(sentence)))
    bare = " ".join(CITATION.sub(" ", sentence).split()).strip(" *_")
    bare = re.sub(r"\s+([.!?,;:])", r"\1", bare)
    if not cites:
        if not _is_claim(sentence, bare):
            return SentenceAudit(sentence, "not a claim")
        if repeats_prior(bare, prior):
            return SentenceAudit(sentence, "prior")
        return SentenceAudit(sentence, "uncited", (), "states something and cites no source")
    missing = [n for n in cites if not 0 < n <= len(chunks)]
    if missing:
        return SentenceAudit(sentence, "unsupported", cites, f"no source [{missing[0]}]")
    texts = [_chunk_text(chunks[n - 1]) for n in cites]
    terms = stems(bare)
    enough = min(MIN_SHARED, len(terms))
    for n, text in zip(cites, texts, strict=True):
        if len(terms & stems(text)) < enough:
            return SentenceAudit(sentence, "unsupported", cites, f"[{n}] is about something else")
    together = " ".join(texts)
    held = terms & stems(together)
    if terms and len(held) < SUPPORT_SHARE * len(terms):
        return SentenceAudit(sentence, "unsupported", cites, "most of it is not in its sources")
    absent = sorted(numbers_in(bare) - numbers_in(together))
    if absent:
        return SentenceAudit(sentence, "unsupported", cites, f"{absent[0]} is not in its sources")
    unnamed = [name for name in named_things(bare) if not mentions(together, name)]
    if unnamed:
        return SentenceAudit(sentence, "unsupported", cites, f"{unnamed[0]} is not in its sources")
    return SentenceAudit(sentence, "supported", cites)


def audit_answer(
    answer: str,
    chunks: Sequence[Mapping[str, Any]],
    entities: Sequence[str] = (),
    prior: Sequence[str] = (),
) -> Audit:
    """The audit of ``answer`` over ``chunks`` (numbered from 1), for a question that named
    ``entities``, by a user who learned ``prior`` before."""
    audits = tuple(audit_sentence(s, chunks, prior) for s in split_sentences(answer))
    cited = {n for a in audits if a.status == "supported" for n in a.cites}
    covered = " ".join(_chunk_text(chunks[n - 1]) for n in sorted(cited))
    uncovered = tuple(name for name in dict.fromkeys(entities) if not mentions(covered, name))
    return Audit(audits, uncovered if audits else tuple(entities))


UNSUPPORTED_MARK = " *(not supported by its source)*"
UNCITED_MARK = " *(no source cited)*"


def marked_answer(answer: str, audit: Audit) -> str:
    """``answer`` with each failing sentence marked where it stands."""
    marked, cursor = answer, 0
    for sentence in audit.sentences:
        at = marked.find(sentence.text, cursor)
        if at < 0:
            continue
        cursor = at + len(sentence.text)
        if sentence.status in ("uncited", "unsupported"):
            mark = UNCITED_MARK if sentence.status == "uncited" else UNSUPPORTED_MARK
            marked = marked[:cursor] + mark + marked[cursor:]
            cursor += len(mark)
    return marked
