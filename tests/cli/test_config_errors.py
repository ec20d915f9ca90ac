"""Bad configuration and a damaged database, through the real command: one sentence naming the
problem and what to do, exit code 2 for a configuration problem, and nothing created."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.fake_openai import FakeOpenAI, Reply

Weaver = Callable[..., subprocess.CompletedProcess[str]]
OFFLINE = {"WEAVER_PROVIDER": "offline"}


def one_sentence(result: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    assert result.returncode == code, (result.returncode, result.stderr)
    message = result.stderr.strip()
    assert "Traceback" not in message, message
    assert len(message.splitlines()) == 1, message
    for word in words:
        assert word in message, message
    return message


def no_conversation_stored(weaver: Weaver) -> None:
    listed = weaver("conversations", env=OFFLINE)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == ""


def test_a_deeply_nested_config_file(weaver: Weaver, tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("theme: " + "[" * 5000 + "]" * 5000 + "\n")

    one_sentence(weaver("ask", "hi", env=OFFLINE), 2, "config.yaml", "too deeply")


def test_a_missing_config_path_is_an_error(weaver: Weaver, tmp_path: Path) -> None:
    one_sentence(
        weaver("--config", str(tmp_path / "nope.yaml"), "ask", "hi", env=OFFLINE),
        2,
        "nope.yaml does not exist",
    )
    no_conversation_stored(weaver)


def test_a_fifo_as_config_is_refused_not_waited_on(weaver: Weaver, tmp_path: Path) -> None:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)

    one_sentence(
        weaver("--config", str(fifo), "conversations", env=OFFLINE), 2, "not a regular file"
    )


def test_a_huge_config_file_is_refused(weaver: Weaver, tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("# padding\n" * 200_000)

    one_sentence(weaver("conversations", env=OFFLINE), 2, "config.yaml", "bytes")


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/v1", "http://", "127.0.0.1:8000/v1", "file:///etc/passwd"]
)
def test_a_base_url_that_is_not_a_web_address(weaver: Weaver, tmp_path: Path, url: str) -> None:
    (tmp_path / "config.yaml").write_text(f"provider: openai-compatible\nbase_url: '{url}'\n")

    message = one_sentence(weaver("ask", "hi"), 2, "base_url", "config.yaml")
    assert "Value error" not in message
    (tmp_path / "config.yaml").unlink()
    no_conversation_stored(weaver)


def test_a_provider_base_url_variable_is_checked_too(weaver: Weaver) -> None:
    env = {"WEAVER_PROVIDER": "openai", "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "gopher://x"}

    one_sentence(weaver("ask", "hi", env=env), 2, "OPENAI_BASE_URL")


def test_an_unknown_default_profile_exits_2_and_creates_nothing(
    weaver: Weaver, tmp_path: Path
) -> None:
    (tmp_path / "config.yaml").write_text("default_profile: evil\n")

    one_sentence(weaver("ask", "hi", env=OFFLINE), 2, "default_profile", "'evil'", "mediator")
    (tmp_path / "config.yaml").unlink()
    no_conversation_stored(weaver)


def test_a_damaged_page_in_the_database_is_one_sentence(weaver: Weaver, tmp_path: Path) -> None:
    first = weaver("ask", "hello world " * 500, env=OFFLINE)
    assert first.returncode == 0, first.stderr
    conversation = first.stderr.strip().splitlines()[-1].removeprefix("conversation: ")
    database = tmp_path / "data" / "weaver.db"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'conversations'"
        ).fetchone()
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    # The conversations table's page: every later ask reads it (an index page was only read
    # now and then, so the damage went unseen in some runs).
    with database.open("r+b") as handle:  # garbage over the page header, as a bad disk leaves
        handle.seek((root - 1) * page_size + 8)
        handle.write(b"\xff" * 64)

    result = weaver("ask", "--conversation", conversation, "again", env=OFFLINE)

    message = one_sentence(result, 1, str(database), "is damaged", "move it aside")
    assert "rollback" not in message


def test_a_web_page_for_an_answer_names_the_base_url(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.script(Reply.raw(b"<html><title>Router login</title></html>", "text/html"))
    env = {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_MODEL": "fake-model",
    }

    message = one_sentence(weaver("ask", "hi", env=env), 1, "text/html", "Router login")
    assert "base_url" in message
    assert "unexpectedly" not in message


def test_the_app_does_not_start_on_a_missing_config_or_env_file(
    subprocess_cli: Weaver, tmp_path: Path
) -> None:
    """A real process: with no verb the app would start (in a terminal the test has not)."""
    for option, name in (("--config", "gone.yaml"), ("--env-file", "gone.env")):
        result = subprocess_cli(option, str(tmp_path / name))
        one_sentence(result, 2, f"{name} does not exist")
