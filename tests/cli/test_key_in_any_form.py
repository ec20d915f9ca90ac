"""A provider that puts the key it was sent into its answer (split across the stream anywhere,
percent-encoded, in base64) or into an error body (percent-encoded, JSON-escaped, base64 as a
``Basic`` header): the key is readable in nothing ``ask`` prints (plain or ``--json``) and in
no file weaver-tui writes (conversation and checkpoint databases, log, exports). Real HTTP from
the suite's fake server, the real ``ChatOpenAI`` client, real SQLite."""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.openai_script import split_even
from tests.support.remembered_keys import readable_key

Weaver = Callable[..., subprocess.CompletedProcess[str]]
KEY = "k3y+With/Odd=Chars!x42"


def _env(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": KEY,
        "WEAVER_MODEL": "fake-model",
    }


def _leaks(tmp_path: Path, *done: subprocess.CompletedProcess[str]) -> list[str]:
    found = [f"output {how}" for d in done if (how := readable_key(d.stdout + d.stderr, KEY))]
    for path in tmp_path.rglob("*"):
        if path.is_file():
            how = readable_key(path.read_bytes().decode("utf-8", "replace"), KEY)
            if how:
                found.append(f"{path.name} {how}")
    return found


def _exports(
    weaver: Weaver, tmp_path: Path, env: dict[str, str], conversation: str
) -> list[subprocess.CompletedProcess[str]]:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return [
        weaver("export", conversation, env=env),
        weaver("export", conversation, "--format", "jsonl", "--output", str(out), env=env),
    ]


ECHOES = {
    "reply": lambda k: f"Your header was Bearer {k}; again: {k}.",
    "reply percent-encoded": lambda k: f"I called ?api-key={quote(k, safe='')} for you.",
    "reply in base64": lambda k: "Header: Basic " + base64.b64encode(f"me:{k}".encode()).decode(),
}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(echo=st.sampled_from(sorted(ECHOES)), parts=st.integers(1, 40), as_json=st.booleans())
def test_a_key_in_the_answer_is_never_readable(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path, echo: str, parts: int, as_json: bool
) -> None:
    text = ECHOES[echo](KEY)
    fake_openai.script(Reply(deltas=split_even(text, parts)))
    env = _env(fake_openai)
    asked = weaver("ask", *(["--json"] if as_json else []), "hello", env=env)
    assert asked.returncode == 0, asked.stderr
    conversation = asked.stderr.rsplit("conversation: ", 1)[1].split()[0]
    if as_json:
        conversation = json.loads(asked.stdout.splitlines()[0])["conversation_id"]
    assert _leaks(tmp_path, asked, *_exports(weaver, tmp_path, env, conversation)) == []


BODIES = {
    "percent-encoded": lambda k: f"bad key {quote(k, safe='')}",
    "json-escaped": lambda k: "bad key " + json.dumps(k)[1:-1].replace("/", "\\/"),
    "basic header": lambda k: "bad auth Basic " + base64.b64encode(f"user:{k}".encode()).decode(),
}


@pytest.mark.parametrize("form", sorted(BODIES))
def test_a_key_echoed_in_an_error_is_never_readable(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path, form: str
) -> None:
    fake_openai.script(Reply.http_error(400, BODIES[form](KEY)))
    env = _env(fake_openai)
    asked = weaver("ask", "hello", env=env)
    assert asked.returncode == 1, asked.stderr
    assert "Traceback" not in asked.stderr
    conversation = asked.stderr.strip().rsplit("conversation ", 1)[1].rstrip(")")
    assert _leaks(tmp_path, asked, *_exports(weaver, tmp_path, env, conversation)) == []


PASSWORD = "hunter2+Secret/Pw77"


def test_a_password_in_the_base_url_echoed_back_is_never_readable(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    basic = base64.b64encode(f"bob:{PASSWORD}".encode()).decode()
    fake_openai.script(
        Reply.http_error(400, f"user bob with password {PASSWORD} refused (Basic {basic})")
    )
    host = fake_openai.base_url.split("://", 1)[1]
    env = {**_env(fake_openai), "WEAVER_BASE_URL": f"http://bob:{quote(PASSWORD, safe='')}@{host}"}
    asked = weaver("ask", "hello", env=env)
    assert asked.returncode == 1, asked.stderr
    assert fake_openai.chat_requests, "the provider was never asked"
    conversation = asked.stderr.strip().rsplit("conversation ", 1)[1].rstrip(")")
    exports = _exports(weaver, tmp_path, env, conversation)
    found = [
        f"output {how}"
        for d in (asked, *exports)
        if (how := readable_key(d.stdout + d.stderr, PASSWORD))
    ]
    for path in tmp_path.rglob("*"):
        if path.is_file() and (
            how := readable_key(path.read_bytes().decode("utf-8", "replace"), PASSWORD)
        ):
            found.append(f"{path.name} {how}")
    assert found == []
