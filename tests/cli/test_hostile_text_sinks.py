"""A provider's reply of any text, split anywhere across stream chunks, ends its turn complete and
reaches every sink a terminal may read safe: ``ask``'s output, the Markdown export written to a
file, the JSON-lines export and the log (read with ``cat`` and ``tail``) carry no control
character but tab and newline, no C1 control, no bidi override or isolate and no lone surrogate
raw; the JSON-lines export imports again. The reply goes over real HTTP from the suite's fake
server through the real ``ChatOpenAI`` client into a real SQLite store."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.storage.test_printable_class import hostile, unsafe_in
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.openai_script import split_even

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def _env(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-test-not-a-real-key",
        "WEAVER_MODEL": "fake-model",
    }


def _conversation(asked: subprocess.CompletedProcess[str]) -> str:
    return asked.stderr.rsplit("conversation: ", 1)[1].split()[0]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(answer=hostile, parts=st.integers(1, 9))
def test_a_hostile_reply_completes_and_every_sink_is_safe(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path, answer: str, parts: int
) -> None:
    text = f"Start {answer} end."
    fake_openai.script(Reply(deltas=split_even(text, parts)))
    env = _env(fake_openai)
    asked = weaver("ask", "hello", env=env)
    assert asked.returncode == 0, asked.stderr
    assert "Traceback" not in asked.stderr
    assert unsafe_in(asked.stdout + asked.stderr) == []
    conversation = _conversation(asked)

    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    markdown = weaver("export", conversation, "--output", str(out / "chat.md"), env=env)
    jsonl = weaver("export", conversation, "--format", "jsonl", "--output", str(out), env=env)
    assert markdown.returncode == 0, markdown.stderr
    assert jsonl.returncode == 0, jsonl.stderr
    files = [
        out / "chat.md",
        out / "messages.jsonl",
        out / "meta.json",
        tmp_path / "data/weaver.log",
    ]
    for path in files:
        assert unsafe_in(path.read_bytes().decode("utf-8")) == [], path.name
    for line in (out / "messages.jsonl").read_text().splitlines():
        json.loads(line)
    imported = weaver("import", str(out), env=env)
    assert imported.returncode == 0, imported.stderr


def test_an_emoji_split_between_two_chunks_arrives_whole(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    """A server that cuts its text by UTF-16 code units sends an emoji's two halves in two
    chunks (each a lone ``\\udXXX`` escape): the answer stored (and exported) holds the emoji."""
    fake_openai.script(Reply(deltas=["Done \ud83d", "\ude00 here."]))
    env = _env(fake_openai)
    asked = weaver("ask", "hello", env=env)
    assert asked.returncode == 0, asked.stderr
    shown = weaver("export", _conversation(asked), env=env)
    assert "Done 😀 here." in shown.stdout
