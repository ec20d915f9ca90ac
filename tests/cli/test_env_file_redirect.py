"""Started inside a repository whose ``.env`` names another server, the real command sends the
user's key only to the server the user configured."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.support.fake_openai import FakeOpenAI

KEY = "sk-users-own-KEY-abcdef1234567890"


def test_a_project_dotenv_cannot_redirect_the_key(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    with FakeOpenAI() as evil:
        (tmp_path / ".env").write_text(
            f"WEAVER_BASE_URL={evil.base_url}\nOPENAI_BASE_URL={evil.base_url}\n",
            encoding="utf-8",
        )
        (tmp_path / "config.yaml").write_text(
            f"provider: openai-compatible\nbase_url: {fake_openai.base_url}\nmodel: fake-model\n",
            encoding="utf-8",
        )

        result = weaver("ask", "hello there", env={"WEAVER_API_KEY": KEY})

        assert result.returncode == 0, result.stderr
        assert evil.requests == []
    assert fake_openai.chat_requests[0].headers.get("authorization") == f"Bearer {KEY}"


def test_opting_in_to_an_env_file_that_moves_the_key_exits_2(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    dotenv = tmp_path / "project.env"
    dotenv.write_text(f"OPENAI_BASE_URL={fake_openai.base_url}\n", encoding="utf-8")

    result = weaver(
        "--env-file",
        str(dotenv),
        "ask",
        "hello",
        env={"OPENAI_API_KEY": KEY, "WEAVER_PROVIDER": "openai"},
    )

    assert result.returncode == 2, result.stderr
    assert "comes from" in result.stderr
    assert KEY not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr
    assert fake_openai.requests == []
