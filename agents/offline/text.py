"""Small, dependency-free text helpers the offline model's rules share.

The offline model reads the conversation the way a person skims it: words, quoted names,
file paths, numbers, sentences. These helpers are that skimming, kept deterministic so the
same conversation always yields the same reply.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

_TOKEN = re.compile(r"\s*(?:\w+|[^\w\s]+)|\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+#.-]*[A-Za-z0-9_+#]|[A-Za-z0-9]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")

STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    both but by can could did do does doing down during each few for from further had has have
    having he her here hers him his how i if in into is it its itself just let me more most my
    no nor not now of off on once only or other our ours out over own please same she should
    so some such than that the their theirs them then there these they this those through to
    too under until up very was we were what when where which while who whom why will with
    would you your yours tell show give explain know want like need hey hi hello thanks thank
    okay ok s t d ll re ve m""".split()  # noqa: SIM905
)

_FILLER_PREFIX = re.compile(
    r"^(?:(?:hey|hi|hello|ok(?:ay)?|so|well|please)[,!.]?\s+)*"
    r"(?:(?:can|could|would|will) you(?: please)?\s+|please\s+|i(?:'d| would) like to know\s+|"
    r"i want to know\s+|i wonder\s+|do you know\s+)?"
    r"(?:(?:tell|show|give) me(?: about)?\s+|explain(?: to me)?\s+|look up\s+|find out\s+)?",
    re.IGNORECASE,
)


def split_tokens(text: str) -> list[str]:
    """Word-ish stream tokens: each word or punctuation run with the whitespace before it.

    ``"".join(split_tokens(t)) == t`` for every ``t``, so a streamed reply reassembles exactly.
    """
    return _TOKEN.findall(text)


def approx_tokens(text: str) -> int:
    """A rough token count (about four characters per token), never below one for text."""
    return math.ceil(len(text) / 4) if text else 0


def words(text: str) -> list[str]:
    """The words of ``text`` in order, lowercased, punctuation dropped."""
    return [w.lower() for w in _WORD.findall(text)]


def stem(word: str) -> str:
    """A crude stem so "reduces" meets "reduce" and "parameters" meets "parameter"."""
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def keywords(text: str) -> list[str]:
    """Content words of ``text`` (stopwords removed), in order, without repeats."""
    seen: dict[str, None] = {}
    for word in words(text):
        if word not in STOPWORDS and len(word) > 1:
            seen.setdefault(word, None)
    return list(seen)


def overlap(a: Iterable[str], b: Iterable[str]) -> int:
    """How many stems two word lists share."""
    return len({stem(w) for w in a} & {stem(w) for w in b})


def sentences(text: str) -> list[str]:
    """Split prose into sentences (good enough for extractive answers)."""
    flat = re.sub(r"\s+", " ", text).strip()
    return [s.strip() for s in _SENTENCE_END.split(flat) if s.strip()]


def strip_filler(question: str) -> str:
    """The question without greetings, politeness and "can you tell me" framing."""
    text = question.strip()
    previous = None
    while previous != text:
        previous = text
        text = _FILLER_PREFIX.sub("", text, count=1).strip()
    text = re.sub(r"[\s?!.]+$", "", text)
    return text or question.strip().rstrip("?!.")


def shorten(text: str, limit: int = 80) -> str:
    """One line of at most ``limit`` characters, with an ellipsis when cut."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def quoted_terms(text: str) -> list[str]:
    """Terms the user marked: `backticked`, "double" or 'single' quoted (in that order)."""
    found: list[str] = []
    for pattern in (r"`([^`\n]+)`", r"\"([^\"\n]+)\"", r"(?<![\w])'([^'\n]+)'(?![\w])"):
        for match in re.finditer(pattern, text):
            term = match.group(1).strip()
            if term and term not in found:
                found.append(term)
    return found


def identifiers(text: str) -> list[str]:
    """Code-like names in prose: snake_case, camelCase, dotted.names or call() forms."""
    found: list[str] = []
    pattern = r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?"
    for match in re.finditer(pattern, text):
        name = match.group(0)
        bare = name.removesuffix("()")
        code_like = (
            "_" in bare
            or name.endswith("()")
            or re.search(r"[a-z][A-Z]", bare) is not None
            or ("." in bare and not re.search(r"\.(py|md|txt|toml|json|ya?ml)$", bare))
        )
        if code_like and bare not in found:
            found.append(bare)
    return found


def human_list(items: list[str], conjunction: str = "and") -> str:
    """``["a", "b", "c"]`` → ``"a, b and c"``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``plural(3, "file")`` → ``"3 files"``."""
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"


def code_span(text: str) -> str:
    """Inline Markdown code that survives backticks inside ``text``."""
    runs = [len(r) for r in re.findall(r"`+", text)]
    ticks = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fenced(body: str, language: str = "") -> str:
    """A fenced Markdown block whose fence is longer than any backtick run in ``body``."""
    runs = [len(r) for r in re.findall(r"`{3,}", body)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{language}\n{body.rstrip(chr(10))}\n{fence}"
