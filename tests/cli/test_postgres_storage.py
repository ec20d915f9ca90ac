"""The command on a PostgreSQL server (``WEAVER_STORAGE__URL``): a turn's records and graph
state go to the server and nothing to the data folder's SQLite files; a server that is down
or a URL that is not PostgreSQL's is one sentence, and its password is never shown."""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from storage.pg_store import PgConversationStore
from tests.storage.processes import Child

Weaver = Callable[..., subprocess.CompletedProcess[str]]


PASSWORD = "pw-n0t-shown"
"""The test server trusts its loopback users, so any password logs in: one that must never be
seen anywhere."""


def test_a_turn_on_the_server_stores_its_records_and_graph_state_there(
    weaver: Weaver, postgres_url: str, tmp_path: Path
) -> None:
    env = {"WEAVER_STORAGE__URL": postgres_url.replace("weaver@", f"weaver:{PASSWORD}@")}
    first = weaver("ask", "--profile", "ide-helper", "list the files", env=env)
    assert first.returncode == 0, first.stderr
    conversation_id = first.stderr.strip().splitlines()[-1].split(": ", 1)[1]
    exported = weaver("export", conversation_id, "--format", "jsonl", env=env)
    assert exported.returncode == 0, exported.stderr
    seen = first.stdout + first.stderr + exported.stdout + exported.stderr
    seen += (tmp_path / "data" / "weaver.log").read_text(encoding="utf-8")
    assert PASSWORD not in seen

    listed = weaver("conversations", env=env)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split()[0] == conversation_id
    assert not (tmp_path / "data" / "weaver.db").exists()
    assert not (tmp_path / "data" / "checkpoints.sqlite").exists()

    with PgConversationStore(postgres_url) as store:
        records = store.list_messages(conversation_id)
        assert not any(PASSWORD in r.content + str(r.meta) for r in records)
        assert [r.role for r in records][:1] == ["user"]
        assert records[-1].role == "assistant"
        assert records[-1].content
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute("SELECT to_regclass('checkpoints')").fetchone()
        assert row is not None
        assert row[0] is not None  # LangGraph's tables, on the server


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_server_that_is_down_is_one_sentence_without_the_password(weaver: Weaver) -> None:
    url = f"postgresql://weaver:s3cretpass@127.0.0.1:{_closed_port()}/weaver"
    done = weaver("conversations", env={"WEAVER_STORAGE__URL": url})
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "cannot reach the postgresql server" in lines[0].lower()
    assert "s3cretpass" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_storage_url_that_is_not_postgresql_is_one_sentence(weaver: Weaver) -> None:
    done = weaver("conversations", env={"WEAVER_STORAGE__URL": "mysql://u:s3cretpass@h/db"})
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "not a PostgreSQL URL" in lines[0]
    assert "s3cretpass" not in done.stderr + done.stdout


def test_a_conversation_answered_on_another_host_is_refused_in_one_sentence(
    weaver: Weaver, postgres_url: str
) -> None:
    with PgConversationStore(postgres_url) as store:
        conversation = store.create_conversation("ide-helper", "busy elsewhere").id
    elsewhere = Child("turn", postgres_url, conversation, module="tests.storage.backend_child")
    try:
        elsewhere.wait_for("held")
        env = {"WEAVER_STORAGE__URL": postgres_url}
        done = weaver("ask", "--conversation", conversation, "me too?", env=env)
        assert done.returncode != 0
        assert "a reply is being written in conversation" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    finally:
        elsewhere.kill()
    with PgConversationStore(postgres_url) as store:
        assert [r.content for r in store.list_messages(conversation)][:1] == ["a long question"]
        assert "me too?" not in [r.content for r in store.list_messages(conversation)]


def test_a_bad_storage_url_in_the_settings_is_never_quoted_with_its_password(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from agents.errors import ConfigError
    from weaver_tui.core.settings.config import load_settings

    monkeypatch.setenv("WEAVER_STORAGE__URL", "mysql://u:s3cretpass@h/db")
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "none.yaml"))
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "s3cretpass" not in str(caught.value)
    assert "not a PostgreSQL URL" in str(caught.value)
