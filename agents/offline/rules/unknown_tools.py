"""Rules for tools no family knows: call one only when the request clearly matches it.

A tool is a clear match when the user's words meet its name (not generic verbs like "get")
and its manual. Its required arguments are filled from the user's text; after it ran, the
answer reports what it returned.
"""

from __future__ import annotations

import json

from agents.offline.conversation import Conversation, ToolResult
from agents.offline.reply import PlannedCall, Reply
from agents.offline.rules import knowledge, structured
from agents.offline.text import shorten

_MIN_RELEVANCE = 3


def _claimed(conv: Conversation, claimed: frozenset[str]) -> set[str]:
    names = set(claimed)
    names |= {spec.name for spec in knowledge.search_tools(conv)}
    return names


def decide(conv: Conversation, claimed: frozenset[str] = frozenset()) -> Reply | None:
    """Call (or summarise) a tool no family knows; ``claimed``: tools a profile's rules own."""
    known = _claimed(conv, claimed)
    results = [r for r in conv.results if r.name not in known]
    if results:
        return Reply(text=summarise(results))
    if not conv.may_call_tools:
        return None
    candidates = [s for s in conv.tools.values() if s.name not in known]
    ranked = sorted(candidates, key=lambda s: (-structured.relevance(s, conv.user_text), s.name))
    if not ranked or structured.relevance(ranked[0], conv.user_text) < _MIN_RELEVANCE:
        return None
    spec = ranked[0]
    filled = structured.fill_call(conv, spec)
    args = {k: v for k, v in filled.args.items() if k in spec.required}
    return Reply(text=f"Let me use `{spec.name}` for that.", calls=(PlannedCall(spec.name, args),))


def summarise(results: list[ToolResult]) -> str:
    """What each tool returned, briefly: JSON keys and values, or the first lines of text."""
    parts = []
    for result in results:
        head = f"`{result.name}`"
        if result.is_error:
            parts.append(f"{head} failed: {shorten(result.content, 200)}")
            continue
        try:
            data = json.loads(result.content)
        except ValueError:
            data = None
        if isinstance(data, dict):
            rows = "\n".join(
                f"- **{k}**: {shorten(json.dumps(v, default=str), 100)}"
                for k, v in list(data.items())[:10]
            )
            parts.append(f"{head} returned:\n\n{rows}")
        elif isinstance(data, list):
            rows = "\n".join(f"- {shorten(json.dumps(v, default=str), 100)}" for v in data[:10])
            parts.append(f"{head} returned {len(data)} item(s):\n\n{rows}")
        else:
            lines = [x for x in result.content.splitlines() if x.strip()]
            quoted = "\n".join(f"> {shorten(x, 120)}" for x in lines[:8]) or "> (nothing)"
            more = f"\n\n…and {len(lines) - 8} more lines." if len(lines) > 8 else ""
            parts.append(f"{head} returned:\n\n{quoted}{more}")
    return "\n\n".join(parts)
