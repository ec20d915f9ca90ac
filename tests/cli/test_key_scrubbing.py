"""A provider that echoes the API key in its error body: the key reaches no file weaver-tui
writes (conversation database, checkpoint database, log, Markdown and JSON-lines exports) and
nothing it prints, whatever the key looks like."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.fake_openai import FakeOpenAI, Reply

Weaver = Callable[..., subprocess.CompletedProcess[str]]
BEARER = "Bearer abcdefghijklmnopqrstuvwxyz0123456789"

KEYS = {
    "sk-shaped": "sk-proj-ECHOED0123456789abcdefXYZ",
    "plain": "myPlainSecretValue42",
}
FAULTS = {
    "400": lambda key: Reply.http_error(400, f"Invalid request from key {key}; {BEARER}"),
    "401": lambda key: Reply.http_error(401, f"Incorrect API key provided: {key}"),
    "500": lambda key: Reply.http_error(500, f"upstream said {key} was wrong"),
}


def every_written_byte(data: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in data.rglob("*") if p.is_file()}


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("kind", sorted(KEYS))
def test_an_echoed_key_is_scrubbed_everywhere(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path, kind: str, fault: str
) -> None:
    key = KEYS[kind]
    fake_openai.script(FAULTS[fault](key))
    env = {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": key,
        "WEAVER_MODEL": "fake-model",
    }

    asked = weaver("ask", "hello", env=env)
    assert asked.returncode == 1, asked.stderr
    assert fake_openai.chat_requests, "the provider was never asked"
    conversation = asked.stderr.strip().rsplit("conversation ", 1)[1].rstrip(")")
    markdown = weaver("export", conversation, env=env)
    (tmp_path / "out").mkdir()  # an existing folder gets meta.json and messages.jsonl
    jsonl = weaver("export", conversation, "--format", "jsonl", "--output", "out", env=env)
    assert markdown.returncode == 0, markdown.stderr + jsonl.stderr
    assert jsonl.returncode == 0, markdown.stderr + jsonl.stderr

    written = every_written_byte(tmp_path / "data")
    written.update(every_written_byte(tmp_path / "out"))
    assert {"weaver.db", "checkpoints.sqlite", "weaver.log", "messages.jsonl"} <= set(written)
    leaked = [name for name, data in written.items() if key.encode() in data]
    assert leaked == []
    printed = asked.stdout + asked.stderr + markdown.stdout + markdown.stderr
    assert key not in printed
    assert "Traceback" not in printed
    assert "Error:" in markdown.stdout
    assert BEARER not in printed
    assert all(BEARER.encode() not in d for d in written.values())
