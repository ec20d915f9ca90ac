"""``weaver-tui ask`` prints a thinking model's reasoning only when asked, and only to stderr."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable

from agents.runtime.events import ReasoningDelta, RunFinished, TokenDelta
from tests.cli.test_ask import _server_env
from tests.support.fake_openai import FakeOpenAI, Reply
from weaver_tui.core.cli.event_printer import EventPrinter


def test_reasoning_goes_to_stderr_only_with_show_thinking(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(
        Reply(reasoning=["Six times ", "seven."], deltas=["42."]),
        Reply(reasoning=["Hidden."], deltas=["Still 42."]),
    )
    env = _server_env(fake_openai)

    shown = weaver("ask", "--profile", "researcher", "--show-thinking", "six times seven?", env=env)
    quiet = weaver("ask", "--profile", "researcher", "again?", env=env)

    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "42.\n"
    assert shown.stderr.splitlines()[0] == "thinking: Six times seven."
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout == "Still 42.\n"
    assert "Hidden" not in quiet.stderr
    assert "thinking" not in quiet.stderr


def test_every_line_of_the_reasoning_is_marked_and_ends_before_the_answer() -> None:
    out, err = io.StringIO(), io.StringIO()
    printer = EventPrinter(out, err, show_thinking=True)
    for event in (
        ReasoningDelta("r", "First line\nsec"),
        ReasoningDelta("r", "ond line"),
        TokenDelta("r", "Answer."),
        RunFinished("complete", "r"),
    ):
        printer.show(event)

    assert err.getvalue() == "thinking: First line\nthinking: second line\n"
    assert out.getvalue() == "Answer.\n"
