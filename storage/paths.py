"""File names of weaver's data folder, so every layer agrees on where things live."""

from __future__ import annotations

from pathlib import Path

CONVERSATIONS_DB = "conversations.sqlite"
"""The conversation tree: conversations, message records, branch choices, full-text index."""

CHECKPOINTS_DB = "checkpoints.sqlite"
"""LangGraph's checkpointer (graph state inside a turn, pending interrupts)."""


def conversations_db(data_dir: Path) -> Path:
    """The conversation database inside ``data_dir``."""
    return data_dir / CONVERSATIONS_DB


def checkpoints_db(data_dir: Path) -> Path:
    """The LangGraph checkpoint database inside ``data_dir``."""
    return data_dir / CHECKPOINTS_DB
