"""What the offline model says in one reply: text, tool calls, or both."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class PlannedCall:
    """A tool call the model makes (for a structured answer: the schema's tool, filled)."""

    name: str
    args: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Reply:
    """What the model says: ``text`` (a preface when there are calls) and tool ``calls``."""

    text: str = ""
    calls: tuple[PlannedCall, ...] = field(default_factory=tuple)
    structured: bool = False
    """The text is a structured answer (JSON), never annotated."""
