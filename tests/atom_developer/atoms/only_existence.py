"""Only the third atom: checked against its own contract, nothing else."""

from typing import Any


def check_existence(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether anything was found, passing the items through as evidence."""
    return {"is_match": bool(items), "reason": f"{len(items)} found", "evidence": list(items)}
