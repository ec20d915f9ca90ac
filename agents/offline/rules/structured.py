"""Filling a tool's JSON schema from the conversation: structured output and forced calls.

``with_structured_output(Schema)`` binds the schema as a tool and forces it; a router asks
for an intent type, a slot filler for entities and a reformulated query, a critic for a
verdict. Each field is filled by its name and type from the user's words (an enum option the
text points at, a query stripped of filler, entities from capitalised terms), so the object
is valid and follows the input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from agents.offline.conversation import Conversation, ToolSpec
from agents.offline.reply import PlannedCall
from agents.offline.rules import knowledge
from agents.offline.text import keywords, overlap, shorten, strip_filler, words

_ENUM_HINTS = {  # checked in this order: the most specific wording first
    "comparative": r"\b(?:compare[sd]?|comparison|versus|vs\.?|difference|differ|better than)\b",
    "follow_up": r"^(?:and|what about|how about|so)\b|\b(?:it|that|those|this one)\b",
    "multi_hop": r"\b(?:and then|steps?|lead to|relationship between|because of|which then)\b",
    "exploratory": r"\b(?:overview|survey|explore|landscape|trends?|state of the art|what are the (?:main|different|recent))\b",
    "factual": r"^(?:what|who|when|where|which) (?:is|was|are|does)\b|\bdefin(?:e|ition)\b",
}
_NEGATIVE_OPTIONS = ("fail", "failed", "retry", "reject", "rejected", "no", "false", "invalid", "revise")  # fmt: skip
_POSITIVE_OPTIONS = ("pass", "passed", "accept", "accepted", "yes", "true", "valid", "ok", "approve", "approved")  # fmt: skip
_NEGATIVE = re.compile(
    r"\b(?:error|fail(?:ed|s|ure)?|wrong|missing|incorrect|violation|crash)\b", re.I
)
_POSITIVE_FLAGS = ("pass", "passed", "is_valid", "valid", "ok", "approved", "success", "sufficient", "complete", "is_complete", "grounded")  # fmt: skip
_QUERY_NAMES = ("query", "reformulated_query", "question", "search_query", "q", "rewritten_query")
_PROSE_NAMES = ("answer", "final_answer", "draft_answer", "response", "reply", "content", "text", "message")  # fmt: skip
_REASON_NAMES = ("reason", "reasoning", "justification", "rationale", "explanation", "feedback", "critique", "thought")  # fmt: skip


def requested_keys(request: str) -> list[str]:
    """Keys a JSON request names: ``"key": ...`` templates, else "with keys a, b and c"."""
    keys = re.findall(r"[\"'`](\w+)[\"'`]\s*:", request)
    if not keys:
        match = re.search(
            r"\b(?:keys?|fields?|properties)\s+(.+?)(?:\s+(?:for|about|from|describing)\b|[.:;\n]|$)",
            request,
            re.I,
        )
        if match:
            keys = re.findall(r"[A-Za-z_]\w*", re.sub(r"\band\b|\bor\b", ",", match.group(1)))
    if not keys:
        after_json = re.search(r"\bjson\b(.*)$", request, re.I | re.S)
        if after_json:
            keys = re.findall(r"[\"'`]([A-Za-z_]\w*)[\"'`]", after_json.group(1))
    return list(dict.fromkeys(keys))


def json_subject(request: str) -> str:
    """What a JSON request is about: the text after its last colon, else after "for"/"about"."""
    if ":" in request:
        tail = request.rsplit(":", 1)[1].strip()
        if tail:
            return tail
    match = re.search(r"\b(?:for|about|describing)\s+(.+)$", request, re.I | re.S)
    return match.group(1).strip() if match else request


def fill_call(conv: Conversation, spec: ToolSpec) -> PlannedCall:
    """A call to ``spec`` with every field filled from the conversation."""
    return PlannedCall(
        spec.name, fill_object(spec.parameters, conv, spec.parameters.get("$defs", {}))
    )


def best_call(conv: Conversation) -> PlannedCall:
    """When some call is required: the bound tool most related to the request, filled."""
    ranked = sorted(conv.tools.values(), key=lambda s: (-relevance(s, conv.user_text), s.name))
    return fill_call(conv, ranked[0])


def relevance(spec: ToolSpec, text: str) -> int:
    """Name words count double, description words once."""
    generic = {"get", "set", "run", "do", "make", "fetch", "tool", "call", "use"}
    name_words = [w for w in words(spec.name.replace("_", " ")) if w not in generic]
    asked = keywords(text)
    return 2 * overlap(asked, name_words) + overlap(asked, keywords(spec.description))


def fill_object(
    schema: Mapping[str, Any], conv: Conversation, defs: Mapping[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    required = set(schema.get("required") or ())
    for name, prop in (schema.get("properties") or {}).items():
        value = fill_value(name, _resolve(prop, defs), conv, defs)
        if value is not None or name in required:
            out[name] = value
    return out


def fill_value(
    name: str, prop: Mapping[str, Any], conv: Conversation, defs: Mapping[str, Any]
) -> Any:
    """One field's value from its name, type and the conversation."""
    if "enum" in prop:
        return choose_option(list(prop["enum"]), conv)
    if "const" in prop:
        return prop["const"]
    variants = prop.get("anyOf") or prop.get("oneOf")
    if variants:
        usable = [_resolve(v, defs) for v in variants if v.get("type") != "null"]
        return fill_value(name, usable[0], conv, defs) if usable else None
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "string":
        return string_for(name, conv)
    if kind in ("integer", "number"):
        return _number_for(name, prop, conv, integer=kind == "integer")
    if kind == "boolean":
        negative = bool(_NEGATIVE.search(_judged_text(conv)))
        return (not negative) if name.lower() in _POSITIVE_FLAGS else negative
    if kind == "array":
        items = _resolve(prop.get("items") or {}, defs)
        if items.get("type") == "object":
            return [fill_object(items, conv, defs)]
        return list_for(name, conv)
    if kind == "object" or "properties" in prop:
        return fill_object(prop, conv, defs)
    return prop.get("default")


def choose_option(options: list[Any], conv: Conversation) -> Any:
    """The enum option the text names, else the one its wording hints at, else the first."""
    lower = conv.user_text.lower()
    for option in options:
        if isinstance(option, str) and re.search(
            rf"\b{re.escape(option.lower().replace('_', ' '))}\b", lower
        ):
            return option
    by_name = {str(o).lower().replace("-", "_"): o for o in options}
    verdicts = _NEGATIVE_OPTIONS if _NEGATIVE.search(_judged_text(conv)) else _POSITIVE_OPTIONS
    for name in verdicts:
        if name in by_name:
            return by_name[name]
    for name, hint in _ENUM_HINTS.items():
        if name not in by_name or (name == "follow_up" and not conv.earlier_user_texts):
            continue
        if re.search(hint, strip_filler(conv.user_text), re.IGNORECASE):
            return by_name[name]
    return options[0]


def _fenced_body(text: str) -> str:
    """The first fenced block of ``text`` (code or a spec the user pasted), else ""."""
    match = re.search(r"```[\w-]*\n(.*?)```", text, re.S)
    return match.group(1) if match else ""


def string_for(name: str, conv: Conversation) -> str:
    """A string field: a query, code, spec, prose or a name, chosen by the field's name."""
    lower = name.lower()
    question = strip_filler(conv.user_text)
    if lower in _QUERY_NAMES:
        return knowledge.search_query(conv)
    if ("code" in lower and "error" not in lower) or any(w in lower for w in ("yaml", "spec")):
        return _fenced_body(conv.user_text) or question
    if lower in _PROSE_NAMES:
        if conv.results:
            return knowledge.cited_answer(conv.user_text, [r.content for r in conv.results])
        return f"About {shorten(question, 120)}: the offline model can only answer from this conversation."
    if lower in _REASON_NAMES:
        verdict = (
            "it reports problems"
            if _NEGATIVE.search(_judged_text(conv))
            else "it addresses the request"
        )
        return f"Judged from the request ({shorten(question, 100)}): {verdict}."
    if lower in ("recipient", "sender", "speaker", "participant") and conv.sender:
        return conv.sender
    if lower in ("language", "lang"):
        return "python"
    if lower in ("title", "name", "summary", "topic", "subject"):
        return shorten(question, 60)
    return proper_noun(conv.user_text) or question


def proper_noun(text: str) -> str | None:
    """A quoted term, else a capitalised word that does not start a sentence."""
    quoted = re.findall(r"[\"`']([^\"`'\n]{1,60})[\"`']", text)
    if quoted:
        return str(quoted[0])
    for match in re.finditer(r"(?<=[a-z,] )([A-Z][\w-]+(?: [A-Z][\w-]+)*)", text):
        return match.group(1)
    return None


def list_for(name: str, conv: Conversation) -> list[str]:
    lower = name.lower()
    question = strip_filler(conv.user_text)
    if "entit" in lower or "subject" in lower:
        caps = re.findall(
            r"\b[A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*\b|\b[A-Z][a-z]{2,}\b", question
        )
        caps = [
            c for c in caps if c.lower() not in {"what", "how", "why", "which", "who", "compare"}
        ]
        return list(dict.fromkeys(caps)) or keywords(question)[:2]
    if "dimension" in lower or "aspect" in lower:
        match = re.search(r"\b(?:in terms of|regarding|on|by)\s+(.+)$", question)
        return (
            [d.strip() for d in re.split(r",|\band\b", match.group(1)) if d.strip()]
            if match
            else []
        )
    if any(w in lower for w in ("step", "plan", "sub_question", "queries", "subquer")):
        parts = [p.strip(" ,?") for p in re.split(r"\?|\band then\b|;", question) if p.strip(" ,?")]
        return parts or [question]
    if "constraint" in lower:
        return []
    return keywords(question)[:5]


def _number_for(
    name: str, prop: Mapping[str, Any], conv: Conversation, *, integer: bool
) -> int | float:
    lower = name.lower()
    low, high = prop.get("minimum"), prop.get("maximum")
    if "confidence" in lower or ("score" in lower and (high is None or high <= 1)):
        value: float = 0.3 if ("score" in lower and _NEGATIVE.search(_judged_text(conv))) else 0.8
    elif "score" in lower and high is not None:
        value = round(high * (0.3 if _NEGATIVE.search(_judged_text(conv)) else 0.8))
    elif "default" in prop:
        value = prop["default"]
    elif numbers := re.findall(r"\b\d+(?:\.\d+)?\b", conv.user_text):
        value = float(numbers[0])
    else:
        value = low if low is not None else (5 if integer else 1.0)
    if low is not None:
        value = max(value, low)
    if high is not None:
        value = min(value, high)
    return int(value) if integer else float(value)


def _judged_text(conv: Conversation) -> str:
    """What a critic or validator judges: the latest tool output, else the request itself."""
    return conv.results[-1].content if conv.results else conv.user_text


def _resolve(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found: Mapping[str, Any] = defs.get(ref.rsplit("/", 1)[-1], {})
        return found
    return prop
