"""paper-pilot's offline demo: each stage of the graph played from the graph's state.

The router reads the question's shape, not its wording: named things (``LoRA``, ``ReWOO``:
capitalised past their first letter, or capitalised inside the sentence) in its first clause;
two or more are a comparison; a relative clause after a noun ("the method that ...") needs one
fact to find another; a pronoun with nothing named leans on the conversation; a longer question
that names nothing is exploratory. Synthesis quotes the retrieved passages most about the
question, each cited, and cites nothing when no passage is about it; the critic checks that
every cited sentence is in the passage it cites.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents.offline import OfflineSteps, OfflineTurn, Reply
from agents.profiles.paper_pilot.knowledge.index import query_terms

PRONOUNS = frozenset({"it", "its", "that", "this", "they", "them", "their", "those", "these"})
RELATIVES = frozenset({"that", "which", "who"})
CLAUSE_ENDS = (":", ",", ";", "?", " — ", " - ", " – ")
NOTHING_FOUND = "The knowledge base has nothing on this question"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CITATION = re.compile(r"\[(\d+)\]")


def first_clause(question: str) -> str:
    cut = min((i for i in (question.find(e) for e in CLAUSE_ENDS) if i > 0), default=len(question))
    return question[:cut]


def _named(word: str, position: int) -> bool:
    letters = word.strip("\"'`().,?!:;")
    inner_capital = any(c.isupper() for c in letters[1:])
    plain = len(letters) > 1 and letters.isalnum()
    return plain and letters[0].isupper() and (inner_capital or position > 0)


def entities_of(question: str) -> list[str]:
    """The named things of the question's first clause (else of the whole question)."""
    for text in (first_clause(question), question):
        words = text.split()
        found = [w.strip("\"'`().,?!:;") for i, w in enumerate(words) if _named(w, i)]
        if found:
            return list(dict.fromkeys(found))
    return []


def _topic(history: list[str]) -> str | None:
    """What the conversation last asked about: a named thing, else its last search word."""
    for line in reversed(history):
        if line.startswith("user:"):
            asked = line.removeprefix("user:").strip()
            named, terms = entities_of(asked), query_terms(asked)
            return named[-1] if named else (terms[-1] if terms else None)
    return None


def route_of(question: str, history: list[str]) -> tuple[str, str]:
    """(intent, reason) from the question's shape."""
    words = [w.strip("?.,!").lower() for w in question.split()]
    named = entities_of(question)
    if history and not named and PRONOUNS & set(words) and _topic(history):
        return "follow_up", "a pronoun stands for what was asked before"
    if any(a == "the" and c in RELATIVES for a, _, c in zip(words, words[1:], words[2:], strict=False)):  # fmt: skip
        return "multi_hop", "a thing is described by what it does, so it must be found first"
    if len(named) >= 2:
        return "comparative", "it names several things"
    if not named and len(words) >= 5:
        return "exploratory", "it names no single thing"
    return "factual", "one thing is asked about"


def resolved(question: str, history: list[str]) -> str:
    """The question with its first pronoun replaced by the conversation's last topic."""
    topic = _topic(history)
    words = question.split()
    for i, word in enumerate(words):
        if topic and word.strip("?.,!").lower() in PRONOUNS:
            words[i] = topic + word[len(word.strip("?.,!")) :]
            return " ".join(words)
    return question


def _question(state: Mapping[str, Any]) -> str:
    return str(state.get("query") or state.get("question") or "")


def route(turn: OfflineTurn) -> Reply:
    """The intent from the question's shape, and the slots: what it names (a follow-up's
    pronoun resolved first), and for a comparison the aspect after the last named thing. It
    names no collection: whether "agents" in a question asks for the collection or the topic
    is a reading beyond its shape, so the offline demo searches every collection."""
    history = list(turn.state.get("history") or [])
    question = _question(turn.state)
    intent, reason = route_of(question, history)
    if intent == "follow_up":
        question = resolved(question, history)
    named = entities_of(question)
    tail = first_clause(question).split(named[-1], 1)[-1] if named else ""
    return turn.answer(
        {
            "intent": intent,
            "confidence": 0.6,
            "reason": reason,
            "entities": named,
            "dimensions": query_terms(tail)[-1:] if len(named) >= 2 else [],
            "constraints": [],
            "reformulated_query": question,
            "collections": [],
            "steps": steps_of(question) if intent == "multi_hop" else [],
        }
    )


def steps_of(question: str) -> list[str]:
    """Find the thing the relative clause describes, then ask the question of it."""
    words = question.split()
    at = next((i for i, w in enumerate(words) if w.lower() in RELATIVES), None)
    return [" ".join(words[at + 1 :]).rstrip("?"), question] if at is not None else [question]


def plan(turn: OfflineTurn) -> Reply:
    """The steps (when the router gave none: a model that fills only some of its fields)."""
    return turn.answer({"steps": steps_of(_question(turn.state))})


def replan(turn: OfflineTurn) -> Reply:
    done, steps = int(turn.state.get("step") or 0), list(turn.state.get("plan") or [])
    return turn.answer(
        {"action": "next" if done < len(steps) else "synthesize", "revised_step": ""}
    )


def react(turn: OfflineTurn) -> Reply:
    """One search for the question's words; the node stops when the same search comes again."""
    query = " ".join(query_terms(_question(turn.state))) or _question(turn.state)
    return turn.answer({"thought": "search the notes", "action": "search", "query": query})


def refine(turn: OfflineTurn) -> Reply:
    question = _question(turn.state)
    terms = list(turn.state.get("entities") or []) or query_terms(question)
    return turn.answer({"query": " ".join(terms) or question})


def synthesize_text(
    question: str, chunks: Sequence[Mapping[str, Any]], prior: Sequence[str]
) -> str:
    """The passages' sentences most about ``question``, quoted and cited (each thing it names
    with its best passage first); or, when no passage is about it, a plain sentence that cites
    nothing. Facts learned before that the answer does not say follow under their own label."""
    wanted = {t[:5] for t in query_terms(question)}
    named = [n.lower() for n in entities_of(question)]
    picked = []
    for n, chunk in enumerate(chunks, 1):
        text, title = str(chunk.get("text", "")), str(chunk.get("title", ""))
        if named and not any(name in (text + " " + title).lower() for name in named):
            continue
        sentences = [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]
        score, best = max(((len(wanted & {t[:5] for t in query_terms(s)}), s) for s in sentences), default=(0, ""))  # fmt: skip
        if score:
            picked.append((-score, n, best, (text + " " + title).lower()))
    ranked = sorted(picked)
    # Each named thing its best passage first (a comparison covers both sides), then the rest.
    firsts = [next((p for p in ranked if name in p[3]), None) for name in named]
    ordered = list(dict.fromkeys([p for p in firsts if p is not None] + ranked))
    chosen = sorted(ordered[:3], key=lambda item: item[1])
    if not chosen:
        topic = ", ".join(query_terms(question)[:4]) or "it"
        return f"{NOTHING_FOUND}: no note is about {topic}. Add notes with `weaver-tui kb add FOLDER`, then ask again."  # fmt: skip
    answer = " ".join(f"{s.rstrip('.!?')} [{n}]." for _, n, s, _ in chosen)
    fresh = [fact for fact in prior if fact.rstrip(".") not in answer]
    if fresh:
        return answer + "\n\n_From what you learned before:_\n" + " ".join(fresh[:2])
    return answer


def synthesize(turn: OfflineTurn) -> Reply:
    state = turn.state
    prior = [str(f.get("text", "")) for f in state.get("prior") or []]
    chunks = list(state.get("chunks") or [])
    return Reply(text=synthesize_text(_question(state), chunks, prior))


def critic(turn: OfflineTurn) -> Reply:
    """Passed when every cited sentence is found in the passage it cites."""
    chunks = list(turn.state.get("chunks") or [])
    draft = str(turn.state.get("draft", "")).split("\n\n_")[0]
    cited = [s for s in _SENTENCE_END.split(draft) if _CITATION.search(s)]
    wrong = []
    for sentence in cited:
        claim = _CITATION.sub("", sentence).strip().rstrip(".").strip()
        numbers = [int(n) for n in _CITATION.findall(sentence)]
        texts = [" ".join(str(chunks[n - 1].get("text", "")).split()) for n in numbers if 0 < n <= len(chunks)]  # fmt: skip
        if len(texts) != len(numbers) or not all(claim in t for t in texts):
            wrong.append(sentence[:80])
    passed = not wrong and (bool(cited) or draft.startswith(NOTHING_FOUND) or not chunks)
    feedback = "; ".join(f"not in its source: {w}" for w in wrong) or ("" if passed else "no claim cites a source")  # fmt: skip
    return turn.answer({"score": 1.0 if passed else 0.0, "passed": passed, "feedback": feedback})


STEPS: OfflineSteps = {
    "route": route,
    "plan": plan,
    "replan": replan,
    "react": react,
    "synthesize": synthesize,
    "critic": critic,
    "retry_refine": refine,
}
"""Registered as the profile's ``offline``."""
