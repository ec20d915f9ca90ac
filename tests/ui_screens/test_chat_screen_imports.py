"""The modules a launch loads before the first frame of a reopened conversation (the entry
point, the app, the skeleton, the chat screen, the conversation's preview and state, the message
view's renderer) pull in none of the agent stack and no pydantic: the warm-up imports those in
its own thread, after that frame. A real process: what a fresh interpreter has loaded is the fact
under test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("langgraph", "langchain_core", "langchain_openai", "openai", "langsmith", "pydantic")

FIRST_FRAME_MODULES = (
    "weaver_tui.launch",
    "weaver_tui.app",
    "weaver_tui.screens.chat_skeleton",
    "weaver_tui.screens.chat.screen",
    "weaver_tui.chat_preview",
    "weaver_tui.core.chat_state",
    "weaver_tui.widgets.message_view.rich_markdown",
    "agents.runtime.user_message",
    "agents.shared_space.space",
)
"""What the launch imports on the way to that frame (see the module)."""


def _heavy_after_importing(modules: list[str]) -> list[str]:
    report = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if sys.modules.get(m) is not None)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", report], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    heavy: list[str] = json.loads(done.stdout)
    return heavy


def test_importing_the_chat_screen_imports_no_agent_stack() -> None:
    assert _heavy_after_importing(["weaver_tui.screens.chat.screen"]) == []


@settings(max_examples=6, deadline=None)
@given(st.permutations(FIRST_FRAME_MODULES))
def test_the_first_frame_path_in_any_order_imports_no_agent_stack_nor_pydantic(
    order: list[str],
) -> None:
    assert _heavy_after_importing(list(order)) == []
