"""Opening a PostgreSQL store that cannot be used: one sentence saying what to do, and a
password in the URL never shown (the server is real where the case needs one)."""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.pg_store import PgConversationStore
from storage.pg_url import check_storage_url, is_postgres_url, redact_url
from storage.store import StorageError
from tests.storage.builders import assert_sentence
from tests.support.postgres_server import PostgresServer


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_server_that_is_down_is_one_sentence_without_the_password() -> None:
    url = f"postgresql://weaver:hunter2secret@127.0.0.1:{_closed_port()}/weaver"
    with pytest.raises(StorageError) as caught:
        PgConversationStore(url)
    assert_sentence(caught, "Cannot reach the PostgreSQL server", "storage.url")
    assert "hunter2secret" not in str(caught.value)
    assert "weaver:***@" in str(caught.value)


def test_a_database_that_does_not_exist_says_to_create_it(
    postgres_server: PostgresServer,
) -> None:
    with pytest.raises(StorageError) as caught:
        PgConversationStore(postgres_server.url_for("no_such_db"))
    assert_sentence(caught, "does not exist", "createdb")


@pytest.mark.parametrize(
    "url",
    [
        "mysql://bob:pw@host/db",
        "postgresql://bob:pw@host:notaport/db",
        "conversations.sqlite",
    ],
)
def test_a_url_that_is_not_postgresql_is_refused_with_what_to_write(url: str) -> None:
    with pytest.raises(StorageError) as caught:
        check_storage_url(url)
    assert_sentence(caught, "postgresql://user:password@host:5432/database")
    assert ":pw@" not in str(caught.value)


def test_only_postgresql_urls_choose_the_server() -> None:
    assert is_postgres_url("postgresql://h/db")
    assert is_postgres_url("POSTGRES://h/db")
    assert not is_postgres_url("")
    assert not is_postgres_url(None)
    assert not is_postgres_url("/data/conversations.sqlite")


_PASSWORD = st.text(
    alphabet=st.characters(codec="ascii", exclude_characters="/?#&\x00"), min_size=1, max_size=20
)
"""Any password as it may stand in a URL (a ``&`` in one would end the query's field)."""


@settings(max_examples=60, deadline=None)
@given(user=st.from_regex(r"[a-z]{1,8}", fullmatch=True), password=_PASSWORD)
def test_any_password_in_a_url_is_redacted_wherever_the_url_is_shown(
    user: str, password: str
) -> None:
    url = f"postgresql://{user}:{password}@db.example:5432/weaver?password={password}"
    assert redact_url(url) == f"postgresql://{user}:***@db.example:5432/weaver?password=***"


def _ask_until_it_fails(ask: Callable[[], object]) -> None:
    """Ask until asking raises (the server ends a backend soon after it is told to), for at
    most 30 s: past that the test fails, as it should."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ask()
        time.sleep(0.02)


def test_a_signal_whose_connection_the_server_dropped_is_one_sentence(postgres_url: str) -> None:
    import psycopg

    from storage.pg_changes import PgStoreChanges

    changes = PgStoreChanges(postgres_url)
    try:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (changes._conn.info.backend_pid,))
        with pytest.raises(StorageError) as caught:
            _ask_until_it_fails(changes.changed)
        assert_sentence(caught, "PostgreSQL server", "storage.url")
    finally:
        changes.close()


@pytest.mark.parametrize(
    "module", ["storage.pg_store", "storage.pg_seats", "storage.pg_changes", "psycopg"]
)
def test_without_the_postgres_extra_a_server_url_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, module: str
) -> None:
    from storage.backend import StorageTarget, open_changes, open_seat_book, open_store

    for name in ("storage.pg_store", "storage.pg_seats", "storage.pg_changes", module):
        monkeypatch.setitem(sys.modules, name, None)  # as if psycopg were not installed
    target = StorageTarget(tmp_path, "postgresql://weaver:pw@127.0.0.1:5432/weaver")
    for opening in (open_store, open_seat_book, open_changes):
        with pytest.raises(StorageError) as caught:
            opening(target)
        assert_sentence(caught, "pip install 'weaver-tui[postgres]'")
