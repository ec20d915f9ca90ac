"""What an imported conversation keeps of the meta it brings: content, never authority.

An export is data from elsewhere. Its conversation and record meta pass through an
**allowlist**: the keys that describe what was said and how to show it (who said a message,
for whom, the tool calls and their pairing, the model that answered, attachments, sources)
are kept, when their value has the expected shape; every other key is dropped, whatever it
is called. So nothing the runtime reads as a decision arrives with a file: approvals
(``tools_approved``), instructions, model options, a project root, pins and exclusions,
summary marks, pending questions, draft verdicts, applied patches. A key added to the app
later is dropped by import until it is added here on purpose.

Two things the file said are kept inertly, for the user to look at:

- its instructions, under :data:`IMPORTED_INSTRUCTIONS` (the app offers them to be set; the
  runtime never reads that key);
- a tool record's patch outcome (``applied`` / ``reverted``), under :data:`PATCH_ELSEWHERE`:
  history shown as "applied elsewhere". Undo and redo only touch patches accepted on this
  machine (:mod:`storage.accepted_patches`), which an import cannot create.

The importer marks the conversation with :data:`IMPORTED_FROM` (the exported conversation's
id) and :data:`IMPORTED_AT` (when), which the chat header shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

IMPORTED_FROM = "imported_from"
IMPORTED_AT = "imported_at"
IMPORTED_INSTRUCTIONS = "imported_instructions"
PATCH_ELSEWHERE = "patch_elsewhere"

IMPORTER_CONVERSATION_KEYS = frozenset({IMPORTED_FROM, IMPORTED_AT, IMPORTED_INSTRUCTIONS})
"""Conversation meta keys the importer writes itself."""

IMPORTER_RECORD_KEYS = frozenset({PATCH_ELSEWHERE})
"""Record meta keys the importer writes itself."""

MAX_NESTING = 16
"""Deepest a kept value may nest (lists and objects); deeper values are dropped."""


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


def _is_objects(value: Any) -> bool:
    return isinstance(value, list) and all(_is_object(item) for item in value)


def _is_strs(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_tool_calls(value: Any) -> bool:
    return _is_objects(value) and all(
        isinstance(call.get("id", ""), (str, type(None)))
        and isinstance(call.get("name"), str)
        and isinstance(call.get("args", {}), dict)
        for call in value
    )


def _is_str_or_null(value: Any) -> bool:
    return value is None or isinstance(value, str)


CONVERSATION_META: Mapping[str, Callable[[Any], bool]] = {
    "active_leaf": _is_str,
    "participants": _is_strs,
}
"""Conversation meta an import keeps (key -> the shape its value must have)."""

RECORD_META: Mapping[str, Callable[[Any], bool]] = {
    "status": _is_str,
    "tool_calls": _is_tool_calls,
    "tool_call_id": _is_str,
    "name": _is_str,
    "provider": _is_str,
    "model": _is_str,
    "usage": _is_object,
    "turn_usage": _is_object,
    "latency_ms": _is_number,
    "duration_ms": _is_number,
    "error": _is_str_or_null,
    "sender": _is_str,
    "visibility": _is_str,
    "recipient": _is_str,
    "reasoning": _is_str,
    "attachments": _is_objects,
    "artifacts": _is_objects,
    "sources": _is_objects,
    "delivered_content": _is_str,
    "interrupted": _is_bool,
    "patch_id": _is_str,
    "patch_path": _is_str,
}
"""Record meta an import keeps (key -> the shape its value must have). ``visibility`` and
``recipient`` narrow who may read a record, so dropping them would widen it: they stay."""

_PATCH_OUTCOMES = frozenset({"applied", "reverted"})


def nesting(value: Any, limit: int = MAX_NESTING) -> int:
    """How deep ``value`` nests, counted without recursion and stopping past ``limit``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _kept(meta: Mapping[str, Any], allowed: Mapping[str, Callable[[Any], bool]]) -> dict[str, Any]:
    return {
        key: value
        for key, value in meta.items()
        if key in allowed and allowed[key](value) and nesting(value) <= MAX_NESTING
    }


def imported_conversation_meta(
    meta: Mapping[str, Any], source_id: str, now: datetime
) -> dict[str, Any]:
    """The conversation meta an import stores: the allowlisted keys, the instructions kept
    inertly for review, and the importer's own marks."""
    kept = _kept(meta, CONVERSATION_META)
    instructions = meta.get("instructions")
    if isinstance(instructions, str) and instructions.strip():
        kept[IMPORTED_INSTRUCTIONS] = instructions
    kept[IMPORTED_FROM] = source_id
    kept[IMPORTED_AT] = now.isoformat()
    return kept


def imported_record_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The record meta an import stores: the allowlisted keys, and a patch outcome kept as
    history (:data:`PATCH_ELSEWHERE`), never as something undo may act on."""
    kept = _kept(meta, RECORD_META)
    outcome = meta.get("patch_status")
    if outcome in _PATCH_OUTCOMES:
        kept[PATCH_ELSEWHERE] = outcome
    return kept
