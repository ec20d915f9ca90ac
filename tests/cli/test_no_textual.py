"""The headless path (CLI verbs, services, logging, runtime, every profile) never imports Textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_headless_modules_do_not_import_textual() -> None:
    code = (
        "import sys\n"
        "import weaver_tui.cli, weaver_tui.services, weaver_tui.logs, agents.runtime.agent_runtime\n"
        "import weaver_tui.cli.ask_verb, weaver_tui.cli.event_printer\n"
        "from agents.profiles import PROFILE_NAMES, get_profile\n"
        "for name in PROFILE_NAMES:\n"
        "    profile = get_profile(name)\n"
        "    profile.build_graph(profile)\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, timeout=120)
