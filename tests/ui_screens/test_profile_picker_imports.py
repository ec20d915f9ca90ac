"""The profile picker lists every profile from their traits: opening it imports no profile's
graph (which would hold the app's first Ctrl+R for as long as four graphs take to import). A
real process: what a fresh interpreter has loaded is the fact under test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from agents.profile_registry import PROFILE_NAMES, get_profile

REPO = Path(__file__).resolve().parents[2]

LIST_AND_REPORT = (
    "import json, sys\n"
    "from weaver_tui.screens.profile_picker import registered_profiles\n"
    "choices = [list(choice) for choice in registered_profiles()]\n"
    "graphs = sorted(m for m in sys.modules if m.startswith('agents.profiles.')\n"
    "                and not m.endswith('.traits') and m.count('.') > 2)\n"
    "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'langgraph', 'langchain_core'})\n"
    "print(json.dumps({'choices': choices, 'graphs': graphs, 'heavy': heavy}))\n"
)


def test_the_picker_lists_each_profile_with_its_title_without_importing_a_graph() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LIST_AND_REPORT],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["graphs"] == []
    assert report["heavy"] == []
    listed = {name: (title, description) for name, title, description in report["choices"]}
    assert list(listed) == list(PROFILE_NAMES)
    for name in PROFILE_NAMES:
        profile = get_profile(name)
        assert listed[name] == (profile.title, profile.description)
