"""Write ``langgraph.json`` (LangGraph Studio's list of graphs) from the profile registry, so a
profile added with its one registry line is in Studio too. ``--check`` only compares: exit 1
when the file is not what the registry gives (the test suite runs it so).

Run: ``.venv/bin/python scripts/langgraph_json.py [--check]`` from the repository root.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.profile_registry import PROFILE_NAMES  # noqa: E402

STUDIO_MODULE = "./weaver_tui/core/studio_graphs.py"


def variable_name(profile: str) -> str:
    """The module variable of ``profile``'s Studio graph (``ide-helper``: ``ide_helper``)."""
    return profile.replace("-", "_")


def config_text() -> str:
    """``langgraph.json`` as the registry gives it."""
    config = {
        "$schema": "https://langgra.ph/schema.json",
        "python_version": "3.11",
        "dependencies": ["."],
        "graphs": {name: f"{STUDIO_MODULE}:{variable_name(name)}" for name in PROFILE_NAMES},
    }
    return json.dumps(config, indent=2) + "\n"


def main(argv: list[str]) -> int:
    path = ROOT / "langgraph.json"
    wanted = config_text()
    if "--check" in argv:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != wanted:
            print("langgraph.json is not what the registry gives: run scripts/langgraph_json.py")
            return 1
        return 0
    path.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
