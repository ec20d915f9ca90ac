"""The chat screen is imported right after the first frame: importing it (its widgets, the
tool pane among them) pulls in none of the agent stack, which the warm-up imports in its own
thread. A real process: what a fresh interpreter has loaded is the fact under test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("langgraph", "langchain_core", "langchain_openai", "openai", "langsmith")

REPORT = (
    "import json, sys\n"
    "import weaver_tui.screens.chat.screen\n"
    f"print(json.dumps(sorted(m for m in {HEAVY!r} if sys.modules.get(m) is not None)))\n"
)


def test_importing_the_chat_screen_imports_no_agent_stack() -> None:
    done = subprocess.run(
        [sys.executable, "-c", REPORT], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
