"""A small keyword index over Markdown notes, split into sections, scored with BM25.

The test profile's knowledge: real retrieval (tokenise, stop words, BM25 with a title boost)
over the agent-architecture notes shipped with paper-pilot, so answers can cite a section.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

NOTES_DIR = (
    Path(__file__).resolve().parents[3]
    / "agents"
    / "profiles"
    / "paper_pilot"
    / "knowledge"
    / "corpus"
    / "agents"
)
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "what",
        "when",
        "which",
        "why",
        "with",
        "about",
        "into",
        "than",
        "then",
        "there",
        "these",
        "they",
        "use",
        "used",
        "using",
    ]
)
K1, B = 1.2, 0.75


def tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1]


@dataclass(frozen=True, slots=True)
class Section:
    note: str
    title: str
    heading: str
    text: str

    @property
    def words(self) -> list[str]:
        return tokens(f"{self.title} {self.heading} {self.heading} {self.text}")


@dataclass(frozen=True, slots=True)
class Hit:
    section: Section
    score: float


def split_sections(note: str, markdown: str) -> list[Section]:
    """One section per ``##`` heading; the ``#`` title names the note."""
    title = note
    sections: list[Section] = []
    heading, lines = "", list[str]()
    for line in markdown.splitlines():
        if line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("## "):
            if any(s.strip() for s in lines):
                sections.append(Section(note, title, heading, "\n".join(lines).strip()))
            heading, lines = line[3:].strip(), []
        else:
            lines.append(line)
    if any(s.strip() for s in lines):
        sections.append(Section(note, title, heading, "\n".join(lines).strip()))
    return sections


class KnowledgeBase:
    def __init__(self, sections: list[Section]) -> None:
        self.sections = sections
        self._tf = [Counter(s.words) for s in sections]
        self._len = [sum(tf.values()) for tf in self._tf]
        self._avg = sum(self._len) / max(1, len(self._len))
        df: Counter[str] = Counter()
        for tf in self._tf:
            df.update(tf.keys())
        n = len(sections)
        self._idf = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items()}

    @classmethod
    def from_folder(cls, folder: Path) -> KnowledgeBase:
        sections: list[Section] = []
        for path in sorted(folder.glob("*.md")):
            sections.extend(split_sections(path.stem, path.read_text(encoding="utf-8")))
        return cls(sections)

    def search(self, query: str, limit: int = 3) -> list[Hit]:
        terms = set(tokens(query))
        hits = []
        for section, tf, length in zip(self.sections, self._tf, self._len, strict=True):
            score = 0.0
            for term in terms:
                freq = tf.get(term, 0)
                if freq:
                    norm = freq * (K1 + 1) / (freq + K1 * (1 - B + B * length / self._avg))
                    score += self._idf[term] * norm
            if score > 0:
                hits.append(Hit(section, round(score, 3)))
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:limit]


@lru_cache(maxsize=1)
def shipped_knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.from_folder(NOTES_DIR)
