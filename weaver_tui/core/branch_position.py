"""Where the active path ends in the tree, and the model badge: the header's two values the
chat state computes (plain data; the header widget draws them)."""

from __future__ import annotations

from dataclasses import dataclass

OFFLINE_PROVIDER = "offline"


def model_badge(provider: str, model: str) -> str:
    """``offline`` for the embedded model, else ``provider · model``."""
    if provider == OFFLINE_PROVIDER:
        return "offline"
    return f"{provider} · {model}" if model else provider


@dataclass(frozen=True, slots=True)
class BranchPosition:
    """Which leaf of the tree the active path ends at (1-based), of how many, and its depth."""

    index: int
    count: int
    depth: int

    def __str__(self) -> str:
        return self.forms()[0]

    def forms(self) -> tuple[str, ...]:
        """How it reads, longest first (a narrow header drops the depth first)."""
        if self.count == 0:
            return ("new",)
        where = f"branch {self.index}/{self.count}"
        return (f"{where} · depth {self.depth}", where)
