"""``weaver-tui ask`` says on stderr that a rate-limited call waits and tries again, and prints
the answer the retry got (the wait is recorded, not slept)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

from tests.cli.test_ask import _server_env
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.retry_waits import RecordedWaits


def test_a_rate_limited_call_is_told_on_stderr_and_answered(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    retry_waits: RecordedWaits,
) -> None:
    fake_openai.script(Reply.rate_limited(retry_after=2), "Answered after the wait.")

    done = weaver("ask", "--profile", "researcher", "hello?", env=_server_env(fake_openai))

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Answered after the wait.\n"
    assert "rate limited, retrying in 2 s" in done.stderr
    assert retry_waits == [2.0]
    assert len(fake_openai.chat_requests) == 2
