"""``weaver-tui space demo``: the couple's demo played in the terminal, turn by turn, on the
configured model; it names each turn that did not go as the script expects, and the
conversation it played in."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable

from tests.cli.test_ask import _server_env
from tests.support.fake_openai import FakeOpenAI

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def test_the_demo_plays_a_statement_round_on_the_offline_model(weaver: Weaver) -> None:
    done = weaver("--provider", "offline", "space", "demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    conversation = re.search(r"^Conversation (\w+):", out, re.M)
    assert conversation is not None
    assert f"space record --conversation {conversation[1]}" in out
    assert "Turn 8/8: Alex, to everyone:" in out
    assert "Mediator to Sam, privately:" in out
    assert "Then Alex answers the open statement at their seat: partly" in out
    assert re.search(r"^S1 \(.*\): agreed at version 2\.$", out, re.M)
    assert "did not go as the demo expects" not in out


def test_a_turn_that_differs_from_the_script_is_named(
    weaver: Weaver, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(*["I hear you."] * 8)
    done = weaver("space", "demo", env=_server_env(fake_openai))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "! Turn 1 did not go as the demo expects: it expected reply_privately to Alex, " in out
    assert "the mediator did nothing." in out
    assert "! After turn 4: no statement was open for Alex to answer." in out
    assert "Traceback" not in done.stderr
