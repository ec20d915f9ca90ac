"""The quintet profile's key and panel: functions of a :class:`agents.profile.ProfileContext`."""

from __future__ import annotations

from typing import Any

from agents.profile import ProfileContext


def _settings(context: ProfileContext) -> dict[str, Any]:
    section = context.settings.get("quintet")
    return dict(section) if isinstance(section, dict) else {}


def _count(context: ProfileContext) -> int:
    if context.store is None or context.conversation_id is None:
        return 0
    every = int(_settings(context).get("every", 1))
    messages = context.store.list_messages(context.conversation_id)
    return len(messages[every - 1 :: every])


def count_messages(context: ProfileContext) -> str:
    return f"This conversation holds {_count(context)} message(s)."


def panel_lines(context: ProfileContext) -> list[str]:
    return [
        f"greeting: {_settings(context).get('greeting', 'Hello')}",
        f"messages: {_count(context)}",
    ]
