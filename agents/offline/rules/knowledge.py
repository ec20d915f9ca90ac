"""Rules for knowledge-base tools (paper-pilot): search with the question, answer with citations.

Any bound tool whose name says search/retrieve/knowledge/query and that takes a query-like
string is called with the user's question (filler stripped, a follow-up's "it" resolved to
the previous question's subject). The answer is extractive: the returned sentences that
share most words with the question, each cited ``[n]``, then the list of sources.
"""

from __future__ import annotations

import re

from agents.offline.conversation import Conversation, ToolSpec
from agents.offline.reply import PlannedCall, Reply
from agents.offline.rules.sources import Source, parse_sources
from agents.offline.text import keywords, overlap, sentences, shorten, strip_filler

_NAME_HINTS = ("search", "retriev", "knowledge", "query", "lookup", "rag")
_QUERY_ARGS = ("query", "question", "q", "text", "search_query", "prompt", "input")
_CLAIMED = {"search_code"}  # the code tools' search belongs to the code rules
_COLLECTIONS = re.compile(
    r"\b(?:collections?|what (?:is|'s) in the (?:knowledge|library|kb))\b", re.I
)
_PRONOUN = re.compile(r"\b(it|that|this|they|them|its)\b", re.IGNORECASE)


def search_tools(conv: Conversation) -> list[ToolSpec]:
    """Bound tools that look like knowledge search and take a query string."""
    found = []
    for spec in conv.tools.values():
        name = spec.name.lower()
        if spec.name in _CLAIMED or not any(h in name for h in _NAME_HINTS):
            continue
        if query_arg(spec) is not None:
            found.append(spec)
    return found


def query_arg(spec: ToolSpec) -> str | None:
    """The name of the tool's query-like string argument."""
    props = spec.properties
    for name in _QUERY_ARGS:
        if name in props:
            return name
    strings = [k for k in spec.required if (props.get(k) or {}).get("type") == "string"]
    return strings[0] if strings else None


def decide(conv: Conversation) -> Reply | None:
    """Search the knowledge base with the question, then answer from what came back."""
    tools = search_tools(conv)
    names = {t.name for t in tools}
    results = [
        r
        for r in conv.results
        if r.name in names
        or (r.name not in _CLAIMED and any(h in r.name.lower() for h in _NAME_HINTS))
    ]
    if not tools and not results:
        return None
    if not results and conv.may_call_tools:
        calls = []
        listing = next((t for t in conv.tools.values() if "collection" in t.name.lower()), None)
        if listing is not None and _COLLECTIONS.search(conv.user_text) and not listing.required:
            calls.append(PlannedCall(listing.name, {}))
        elif tools:
            spec = tools[0]
            calls.append(PlannedCall(spec.name, {query_arg(spec) or "query": search_query(conv)}))
        if calls:
            return Reply(text="Searching the knowledge base.", calls=tuple(calls))
        return None
    if not results:
        return None
    return Reply(
        text=cited_answer(
            conv.user_text,
            [r.content for r in results if not r.is_error],
            errors=[r.content for r in results if r.is_error],
        )
    )


def search_query(conv: Conversation) -> str:
    """The question as a search query: filler stripped, a follow-up's pronoun resolved."""
    query = strip_filler(conv.user_text)
    if conv.earlier_user_texts and _PRONOUN.search(query):
        subject = _subject(conv.earlier_user_texts[-1])
        if subject and subject.lower() not in query.lower():
            query = _PRONOUN.sub(subject, query, count=1)
    return query


def _subject(question: str) -> str | None:
    """The likely subject of an earlier question: an acronym or capitalised term, else its key word."""
    body = strip_filler(question)
    caps = re.findall(r"\b[A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*\b|\b[A-Z][a-z]{2,}\b", body)
    caps = [c for c in caps if c.lower() not in {"what", "how", "why", "which", "who", "when"}]
    if caps:
        return str(caps[0])
    words = keywords(body)
    return words[0] if words else None


def cited_answer(question: str, payloads: list[str], errors: list[str] | None = None) -> str:
    """An extractive answer: best-matching sentences with ``[n]`` marks, then the sources."""
    sources: list[Source] = []
    for payload in payloads:
        sources.extend(parse_sources(payload, start=len(sources) + 1))
    if not sources:
        reason = f" ({shorten(errors[0], 160)})" if errors else ""
        return f"The knowledge base returned nothing for this question{reason}. Try naming a paper or a method."
    terms = keywords(strip_filler(question))
    scored = []
    for source in sources:
        for position, sentence in enumerate(sentences(source.text)):
            score = overlap(terms, keywords(sentence))
            if score:
                scored.append((-score, source.number, position, sentence, source))
    scored.sort(key=lambda item: item[:3])
    best = -scored[0][0] if scored else 0
    chosen = [item for item in scored if -item[0] * 2 >= best][:3]
    if not chosen:
        listed = "\n".join(f"- [{s.cite}] {s.title}" for s in sources[:6])
        return f"Nothing returned answers **{strip_filler(question)}** directly. The closest sources:\n\n{listed}"
    chosen.sort(key=lambda item: (item[1], item[2]))
    body = " ".join(
        _cite(_named(sentence, source.title) if position else sentence, source.cite)
        for _, _, position, sentence, source in chosen
    )
    cited = sorted({item[4].number for item in chosen})
    source_lines = "\n".join(
        f"- [{s.cite}] {s.title}" + (f" ({s.location})" if s.location else "")
        for s in sources
        if s.number in cited
    )
    return f"{body}\n\n**Sources**\n\n{source_lines}"


def _named(sentence: str, title: str) -> str:
    """A sentence lifted out of its passage: a leading "It" becomes the passage's subject."""
    subject = re.split(r"\s+[—–-]\s+|:\s", title, maxsplit=1)[0].strip()
    if subject and re.match(r"It\b", sentence):
        return subject + sentence[2:]
    return sentence


def _cite(sentence: str, number: str) -> str:
    """``"It works."`` → ``"It works [1]."``."""
    text = sentence.rstrip()
    if text and text[-1] in ".!?":
        return f"{text[:-1]} [{number}]{text[-1]}"
    return f"{text} [{number}]."
