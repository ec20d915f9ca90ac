"""What the headless path loads, in one fresh interpreter: building a network model loads the
OpenAI SDK but not its aiohttp transport, and the headless path (CLI verbs, services, logging,
runtime, every profile's graph) never imports Textual.

The two checks share a process because neither can hide what the other looks for. The model
is built first, exactly as a process of its own would build it (``agents`` is imported before
the SDK, which is what keeps the transport out), and its check is taken at once. The Textual
check comes after and asks for an absence: what the model's imports loaded before only adds to
``sys.modules``, so Textual loaded by either part is found."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

CHILD = (
    "import sys\n"
    "from pydantic import SecretStr\n"
    "from agents.providers import ProviderConfig, make_chat_model\n"
    "make_chat_model(ProviderConfig(provider='openai-compatible', model='m',"
    " base_url='http://127.0.0.1:9/v1', api_key=SecretStr('k')))\n"
    "import aiohttp  # installed: the check below means something\n"
    "print('openai' in sys.modules, 'openai._vendor.httpx_aiohttp' in sys.modules"
    " and sys.modules['openai._vendor.httpx_aiohttp'] is not None)\n"
    "import weaver_tui.core.cli, weaver_tui.core.services, weaver_tui.core.logs, agents.runtime.agent_runtime\n"
    "import weaver_tui.core.cli.ask_verb, weaver_tui.core.cli.event_printer\n"
    "from agents.profile_registry import PROFILE_NAMES, get_profile\n"
    "for name in PROFILE_NAMES:\n"
    "    profile = get_profile(name)\n"
    "    profile.build_graph(profile)\n"
    "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
    "print('textual:', *loaded)\n"
)


def test_the_sdk_does_not_import_its_aiohttp_transport_and_headless_modules_not_textual() -> None:
    pytest.importorskip("aiohttp")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    model_line, textual_line = done.stdout.splitlines()
    assert model_line.split() == ["True", "False"]  # the SDK loaded, its transport not
    assert textual_line.split() == ["textual:"]  # no Textual module at all
