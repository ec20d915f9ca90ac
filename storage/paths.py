"""File names of weaver's data folder, so every layer agrees on where things live."""

from __future__ import annotations

from pathlib import Path

CHECKPOINTS_DB = "checkpoints.sqlite"
"""LangGraph's checkpointer (graph state inside a turn, pending interrupts)."""


MEMORY_DB = "knowledge/memory.sqlite"
"""paper-pilot's remembered facts (table ``facts``), beside its knowledge index."""


def checkpoints_db(data_dir: Path) -> Path:
    """The LangGraph checkpoint database inside ``data_dir``."""
    return data_dir / CHECKPOINTS_DB
