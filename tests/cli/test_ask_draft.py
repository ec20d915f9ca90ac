"""``weaver-tui ask`` never prints a rejected draft as the answer: a reply streamed as a draft
(paper-pilot's synthesis, before its critic) reaches stdout only once settled, whole; stderr
says a draft is being written and how the check went. The knowledge server that answers from
the shipped notes is the one the worker's tests share (``notes_url``)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.cli.test_ask import _server_env
from tests.paper_pilot.drafts import REJECTED, SETTLED, script_rejected_then_settled
from tests.support.fake_openai import FakeOpenAI
from tests.support.shared_notes import notes_settings_for


def test_ask_prints_only_the_settled_answer_and_says_the_draft_was_rejected(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    notes_url: str,
    tmp_path: Path,
) -> None:
    settings = notes_settings_for(notes_url, tmp_path)
    (tmp_path / "config.yaml").write_text(json.dumps(settings), encoding="utf-8")
    script_rejected_then_settled(fake_openai)

    done = weaver("ask", "--profile", "paper-pilot", "What is LoRA?", env=_server_env(fake_openai))

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(SETTLED.removesuffix(" [1]."))
    assert "**Sources**" in done.stdout
    assert REJECTED.removesuffix(" [1].") not in done.stdout
    assert (
        done.stdout.count(SETTLED.removesuffix(" [1].")) == 1
    )  # the answer once, not draft + answer
    assert "answer: draft rejected: the source does not say" in done.stderr
