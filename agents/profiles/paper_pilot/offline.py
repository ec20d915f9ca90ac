"""paper-pilot's rules for the offline model: each stage played from its input.

The router reads the question's form (named things compared, a fact needed to find another, an
open "what is known about", a pronoun that leans on the conversation); slot filling picks the
entities named and resolves "that"/"it" to the last one named before; synthesis writes only
sentences found in the numbered sources and cites each; the critic fails a draft whose
citations do not support their sentence; with nothing relevant, the answer says so and cites
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from agents.offline.conversation import Conversation
from agents.offline.family import RuleFamily
from agents.offline.reply import PlannedCall, Reply
from agents.profiles.paper_pilot import prompts
from agents.profiles.paper_pilot.knowledge.index import query_terms

_COMPARE = re.compile(
    r"\b(?:compare[sd]?|comparison|vs\.?|versus|difference|differences|differ|better than|"
    r"compared (?:with|to)|trade-?offs? between)\b",
    re.IGNORECASE,
)
_MULTI_HOP = re.compile(
    r"\b(?:the|a|an)\s+(?:method|model|technique|approach|paper|algorithm|one|idea)\s+"
    r"(?:that|which|who)\s+(?P<clause>[^?,]+?)(?=\s+(?:compare|does|do|is|was|use|uses|need|"
    r"needs|cost|work|improve|differ)\b|[?,]|$)",
    re.IGNORECASE,
)
_EXPLORE = re.compile(
    r"\b(?:what is known about|what do we know about|overview of|tell me about|explore|survey|"
    r"landscape|what are the (?:approaches|methods|ways|options)|ways to)\b",
    re.IGNORECASE,
)
_PRONOUN = re.compile(r"\b(?:that|it|its|this|they|them|their|those|these)\b", re.IGNORECASE)
_FOLLOW_START = re.compile(r"^\s*(?:and|also|so|then|what about|how about)\b", re.IGNORECASE)
_PAIR = re.compile(
    r"(?:compare|comparison of|difference between|differences between|trade-?offs? between)\s+"
    r"(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?)(?:\s+(?:in terms of|on|for)\s+"
    r"(?P<dim>.+?))?[?.!]*$|(?P<a2>[\w.+ -]+?)\s+(?:vs\.?|versus|compared (?:with|to)|"
    r"compare (?:with|to))\s+(?P<b2>.+?)(?:\s+(?:in terms of|on|for)\s+(?P<dim2>.+?))?[?.!]*$",
    re.IGNORECASE,
)
_NAMED = re.compile(r"\b(?:[A-Z][a-z]*[A-Z][A-Za-z0-9]*|[A-Z]{2,}[A-Za-z0-9]*|[A-Z][a-z]{2,})\b")
_NOT_NAMES = frozenset({
    "what", "how", "which", "why", "when", "where", "who", "compare", "tell", "and", "explain",
    "describe", "define", "give", "list", "show", "summarize", "summarise", "does", "is", "are",
    "can", "could", "should", "would", "please", "find",
})  # fmt: skip
"""Capitalised words that open a question rather than name something in it."""
_DIMENSIONS = (
    "cost", "memory", "quality", "speed", "accuracy", "efficiency", "stability", "training",
    "inference", "parameters", "latency", "limits", "strengths",
)  # fmt: skip
_LEADING = re.compile(
    r"^(?:how|what|why|does|do|is|are|can|which|when|where|who|and|also|so|then|tell|the)\s+",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(
    r"\s*(?:[:;,()]|\s[-–—]\s|—)\s*|\s+(?=(?:which|who|what|how|when|where|why|whose)\b)",
    re.IGNORECASE,
)
"""Where a named thing ends and the rest of the question begins ("ReAct: which uses fewer calls",
"LoRA, and which needs less memory")."""
_SOURCE = re.compile(r"^\[(\d+)\]\s+(.*?)\s+\(([^()]*)\):\s*(.*)$")
_CITE = re.compile(r"\[(\d+)\]")
ALREADY_LEARNED = "You have read this before, in an earlier answer."
NOTHING_FOUND = "The knowledge base has nothing on this question"


# -- reading the stage's input ----------------------------------------------------------------


def _label(text: str, label: str) -> str:
    match = re.search(rf"^{re.escape(label)}:\s*(.*)$", text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def _block(text: str, label: str) -> list[str]:
    """The ``- item`` lines (or any lines) under ``label:`` up to the next blank or label line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"{label}:":
            out = []
            for item in lines[i + 1 :]:
                if not item.strip() or re.match(r"^[A-Z][\w ]*:", item):
                    break
                out.append(item.strip().removeprefix("- "))
            return out
    return []


def _sources(text: str) -> dict[int, tuple[str, str, str]]:
    found = {}
    for line in text.splitlines():
        match = _SOURCE.match(line.strip())
        if match:
            found[int(match.group(1))] = (match.group(2), match.group(3), match.group(4))
    return found


def _stems(text: str) -> set[str]:
    return {word[:5] for word in query_terms(text)}


def _clean(phrase: str) -> str:
    phrase = _CLAUSE_END.split(phrase, maxsplit=1)[0]
    phrase = re.sub(r"\s+", " ", phrase).strip(" ?.!,")
    return re.sub(r"^(?:the|a|an)\s+", "", phrase, flags=re.IGNORECASE)


# -- entities and intents ---------------------------------------------------------------------


def entities_of(question: str) -> tuple[list[str], list[str]]:
    """(entities, dimensions) named in ``question``."""
    dimensions = [d for d in _DIMENSIONS if re.search(rf"\b{d}\b", question, re.IGNORECASE)]
    match = _PAIR.search(question)
    if match:
        a = match.group("a") or match.group("a2") or ""
        b = match.group("b") or match.group("b2") or ""
        dim = match.group("dim") or match.group("dim2")
        a = _clean(a)
        while (shorter := _LEADING.sub("", a)) != a:  # "how does LoRA" -> "LoRA"
            a = shorter
        if dim:
            dimensions = [*dict.fromkeys([*dimensions, _clean(dim)])]
        pair = [e for e in (_clean(a), _clean(b)) if e and not _PRONOUN.fullmatch(e)]
        if len(pair) == 2:
            return pair, dimensions
    named = [w for w in _NAMED.findall(question) if w.lower() not in _NOT_NAMES]
    return list(dict.fromkeys(named)), dimensions


_TOPIC = (
    re.compile(r"\babout\s+(?P<topic>.+)$", re.IGNORECASE),
    re.compile(r"\b(?:explain|define|describe|overview of)\s+(?P<topic>.+)$", re.IGNORECASE),
    re.compile(r"\b(?:what|how)\s+(?:is|are|does|do)\s+(?P<topic>.+)$", re.IGNORECASE),
)
"""Where a question without a capitalised name names its topic, most telling first ("what is
known about quantization", "explain mixture of experts", "what is distillation")."""


def topic_of(question: str) -> str | None:
    """What ``question`` is about: the first thing it names, else the phrase after "about",
    "explain" or "what is"."""
    entities, _ = entities_of(question)
    if entities:
        return entities[0]
    for pattern in _TOPIC:
        if match := pattern.search(question):
            words = _clean(match.group("topic")).split()[:4]
            topic = " ".join(words)
            if topic and not _PRONOUN.match(topic) and query_terms(topic):
                return topic
    return None


def _last_entity(history: list[str]) -> str | None:
    for line in reversed(history):
        if not line.startswith("user:"):
            continue
        topic = topic_of(line.removeprefix("user:").strip())
        if topic:
            return topic
    return None


def resolve(question: str, history: list[str]) -> str:
    """``question`` with its first pronoun replaced by the entity named last before it."""
    entity = _last_entity(history)
    if entity is None:
        return question
    resolved = _PRONOUN.sub(entity, question, count=1)
    return _FOLLOW_START.sub("", resolved).strip() or resolved


def route(question: str, history: list[str]) -> tuple[str, float, str]:
    leans_on_history = bool(history) and (
        bool(_FOLLOW_START.match(question))
        or (bool(_PRONOUN.search(question)) and not entities_of(question)[0])
        or (bool(_PRONOUN.search(question)) and len(question.split()) <= 10)
    )
    if leans_on_history and _last_entity(history):
        return "follow_up", 0.85, "it refers to something named earlier"
    if _MULTI_HOP.search(question):
        return "multi_hop", 0.8, "one fact is needed to find another"
    if _COMPARE.search(question):
        return "comparative", 0.9, "it compares named things"
    if _EXPLORE.search(question):
        return "exploratory", 0.8, "it asks for an overview"
    return "factual", 0.7, "one thing asked about"


# -- the stages -------------------------------------------------------------------------------


def _route_call(text: str) -> dict[str, Any]:
    question, history = _label(text, "Question"), _block(text, "Earlier in this conversation")
    intent, confidence, reason = route(question, history)
    return {"intent": intent, "confidence": confidence, "reason": reason}


def _slot_call(text: str) -> dict[str, Any]:
    question, history = _label(text, "Question"), _block(text, "Earlier in this conversation")
    intent, _, _ = route(question, history)
    query = resolve(question, history) if intent == "follow_up" else question
    entities, dimensions = entities_of(query)
    return {"entities": entities, "dimensions": dimensions, "constraints": [],
            "reformulated_query": query}  # fmt: skip


def _plan_call(text: str) -> dict[str, Any]:
    question = _label(text, "Question")
    match = _MULTI_HOP.search(question)
    if not match:
        return {"steps": [question]}
    first = f"{_clean(match.group('clause'))}"
    rest = (question[: match.start()] + "it" + question[match.end() :]).strip()
    return {"steps": [first, rest]}


def _replan_call(text: str) -> dict[str, Any]:
    steps = [re.sub(r"^\d+\.\s*", "", s) for s in _block(text, "Plan")]
    done = int(_label(text, "Steps done") or 0)
    found = _block(text, "Found")
    if done >= len(steps) or not steps:
        return {"action": "synthesize", "revised_step": ""}
    nxt = steps[done]
    if found and re.search(r"\b(?:it|this|that)\b", nxt, re.IGNORECASE):
        name = found[0].split(" — ")[0].split(":")[0].strip()
        return {"action": "revise", "revised_step": re.sub(r"\b(?:it|this|that)\b", name, nxt, count=1)}  # fmt: skip
    return {"action": "next", "revised_step": ""}


def _react_call(text: str) -> dict[str, Any]:
    question = _label(text, "Question")
    searches = [s for s in _label(text, "Searches done").split("; ") if s]
    findings = _block(text, "Findings so far")
    topic = " ".join(query_terms(_EXPLORE.sub("", question))) or question
    if not searches:
        return {"thought": f"start with {topic}", "action": "search", "query": topic}
    if len(searches) == 1 and len(findings) < 4:
        return {"thought": "look for methods and limits", "action": "search",
                "query": f"{topic} methods trade-offs"}  # fmt: skip
    return {"thought": "the findings cover it", "action": "finish", "query": ""}


def _critic_call(text: str) -> dict[str, Any]:
    sources = _sources(text)
    draft = text.split("Draft answer:", 1)[-1].strip()
    draft = re.sub(r"([.!?])\s*((?:\[\d+\]\s*)+)", r" \2\1 ", draft)  # "x. [2]" -> "x [2]."
    claims = [s for s in re.split(r"(?<=[.!?])\s+|\n+", draft) if s.strip()]
    cited = [(s, [int(n) for n in _CITE.findall(s)]) for s in claims if _CITE.search(s)]
    if not cited:
        honest = draft.startswith(NOTHING_FOUND) or not sources
        return {"score": 1.0 if honest else 0.0, "passed": honest,
                "feedback": "" if honest else "no claim cites a source"}  # fmt: skip
    supported = 0
    problems = []
    for sentence, numbers in cited:
        words = _stems(_CITE.sub("", sentence))
        ok = all(n in sources and len(words & _stems(sources[n][2])) >= 2 for n in numbers)
        supported += ok
        if not ok:
            problems.append(f"[{','.join(map(str, numbers))}] does not support: {sentence[:80]}")
    score = supported / len(cited)
    return {"score": round(score, 2), "passed": score >= 0.99, "feedback": "; ".join(problems)}


def _refine_call(text: str) -> dict[str, Any]:
    question = _label(text, "Original question") or _label(text, "Question")
    entities, dimensions = entities_of(question)
    terms = [*entities, *dimensions] or query_terms(question)
    return {"query": " ".join(dict.fromkeys(terms))}


_STAGES = {
    "RouteDecision": _route_call,
    "SlotFill": _slot_call,
    "ResearchPlan": _plan_call,
    "ReplanDecision": _replan_call,
    "ReactStep": _react_call,
    "CriticVerdict": _critic_call,
    "Refinement": _refine_call,
}


def _stage(conv: Conversation) -> Reply | None:
    for name, call in _STAGES.items():
        if name in conv.tools:
            return Reply(calls=(PlannedCall(name, call(conv.user_text)),))
    return None


def synthesize(question: str, sources: Mapping[int, tuple[str, str, str]], prior: list[str]) -> str:
    """Sentences taken from the sources most related to ``question``, each cited."""
    wanted = _stems(question)
    named = {stem for word in entities_of(question)[0] for stem in _stems(word)}
    scored = []
    for n, (title, _where, text) in sources.items():
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
        best = max(sentences, key=lambda s: len(wanted & _stems(s)), default="")
        overlap = len(wanted & _stems(best))
        if named and not named & (_stems(best) | _stems(title)):
            continue  # about something else than what the question names
        if overlap:
            scored.append((overlap, -n, n, best))
    scored.sort(reverse=True)
    picked = sorted(scored[:3], key=lambda item: item[2])
    if not picked:
        topic = ", ".join(query_terms(question)[:4]) or "it"
        return (f"{NOTHING_FOUND}: none of its notes cover {topic}. Add notes that do with "
                "`weaver-tui kb add FOLDER`, then ask again.")  # fmt: skip
    lines = [
        f"{_named_subject(sentence, sources[n][0]).rstrip('.!?')} [{n}]."
        for _, _, n, sentence in picked
    ]
    text = " ".join(lines)
    said = _stems(text)
    fresh = [fact for fact in prior if not _stems(fact) <= said]  # not what the answer just said
    if fresh:
        text += "\n\n_From what you learned before:_ " + " ".join(fresh[:2])
    elif prior:
        text += f"\n\n_{ALREADY_LEARNED}_"
    return text


_OPENING_PRONOUN = re.compile(r"^(?:It|This|This method|This approach)\s+(?=[a-z])")
_EXPLETIVE = re.compile(
    r"^It\s+(?:is|was)\s+(?:not\s+)?(?:common|important|possible|worth|easy|hard|likely|"
    r"unclear|known|true|better|best|often|usually|tempting)\b"
)


def _named_subject(sentence: str, title: str) -> str:
    """A sentence lifted from a note names what "It" stood for there: the note title's subject
    ("It sits between ReAct and ReWOO" from "Plan-and-execute — Idea" reads "Plan-and-execute
    sits between ...")."""
    subject = re.split(r":|\s[-–—]\s", title, maxsplit=1)[0].strip()
    if not subject or _EXPLETIVE.match(sentence):
        return sentence
    return _OPENING_PRONOUN.sub(subject + " ", sentence, count=1)


def _synthesis(conv: Conversation) -> Reply | None:
    if conv.tools or prompts.SYNTHESIZE[:40] not in conv.system:
        return None
    text = conv.user_text
    prior = _block(text, "Prior knowledge")
    return Reply(text=synthesize(_label(text, "Question"), _sources(text), prior))


RULES = (RuleFamily(frozenset(_STAGES), _stage), _synthesis)
"""Registered as the profile's ``offline_rules``."""
