"""No front end imports the agent stack on its event loop.

The agent stack's imports take about a third of a second of CPU; made on the event loop they
stop the app's frames and keys (a message sent right after the launch froze the screen until
the stack was in) or ACP's requests. The guarantee, for every way a first turn starts: each
watched package (``tests.support.loop_imports.WATCHED``) is imported by a thread that runs no
event loop: the app's warm-up, or the runtime's opening (``Services.runtime``) in a thread.
Each case runs in a fresh interpreter (nothing imported beforehand) against the suite's
OpenAI-compatible server, and follows the first turn to its stored, complete reply. The ACP
agent's first prompt is followed the same way in ``tests/acp/test_acp_loop_imports.py``;
``ask`` runs one turn on its loop, which has nothing else to answer meanwhile. No chat model
is built on a loop either (a build makes HTTP clients and may import the provider's stack).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fake_openai import FakeOpenAI, Reply

REPO = Path(__file__).resolve().parent.parent

MOMENTS = ("app-at-once", "app-while-importing", "app-after-warm-up")
"""The app's first turn sent before its warm-up, during its imports, and after it."""


@pytest.mark.parametrize("mode", MOMENTS)
def test_a_first_turn_imports_no_agent_module_on_an_event_loop(
    mode: str, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("hello back"))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("WEAVER_", "OPENAI_")) and k != "PYTHONDONTWRITEBYTECODE"
    }
    env |= {
        "PYTHONPATH": str(REPO),
        "WEAVER_DATA_DIR": str(tmp_path / "data"),
        "WEAVER_CONFIG": str(tmp_path / "config.yaml"),
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "test-key",
        "WEAVER_MODEL": "fake-model",
        "WEAVER_DEFAULT_PROFILE": "ide-helper",
    }
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.loop_imports", mode],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["completed"], done.stdout
    assert result["on_loop"] == [], result["on_loop"]
    assert result["built_on_loop"] == [], result["built_on_loop"]
    assert len(fake_openai.chat_requests) == 1
    if mode == "app-after-warm-up":  # nothing at all is left for the turn to import
        assert result["in_turn"] == [], result["in_turn"]
