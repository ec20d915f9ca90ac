"""A database where weaver-tui may not install the ``unaccent`` extension (a user without the
right on the ``public`` schema): the store still opens and searches, accents kept."""

from __future__ import annotations

import psycopg

from storage.pg_store import PgConversationStore
from tests.support.postgres_server import PostgresServer


def test_a_user_who_may_not_install_unaccent_still_gets_search(
    postgres_server: PostgresServer,
) -> None:
    with psycopg.connect(postgres_server.url, autocommit=True) as admin:
        admin.execute("CREATE DATABASE plain_db")
        admin.execute("CREATE ROLE plain_user LOGIN")
    with psycopg.connect(postgres_server.url_for("plain_db"), autocommit=True) as admin:
        admin.execute("CREATE SCHEMA plain AUTHORIZATION plain_user")
    url = (
        f"postgresql://plain_user@127.0.0.1:{postgres_server.port}/plain_db"
        "?options=-csearch_path%3Dplain"
    )
    with PgConversationStore(url) as store:
        conversation = store.create_conversation("mediator", "accents")
        record = store.add_message(conversation.id, "user", "L'école est naïve", None)
        assert [hit.message_id for hit in store.search("école")] == [record.id]
        assert store.search("ecole") == []  # no unaccent here: accents are kept
    with psycopg.connect(postgres_server.url_for("plain_db")) as check:
        row = check.execute("SELECT count(*) FROM pg_extension WHERE extname = 'unaccent'")
        assert row.fetchone() == (0,)
