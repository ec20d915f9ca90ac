"""A store copied between the SQLite file and a real PostgreSQL server reads back the same:
any generated tree of conversations, records, versions, branches, seats, waiting messages and
accepted patches; a second copy changes nothing; a copy back gives the same again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.backend import StorageTarget, open_seat_book, open_store
from storage.migrate import PgSide, SqliteSide, migrate
from tests.support.postgres_server import PostgresServer, fresh_schema_url

if TYPE_CHECKING:
    from storage.backend import AnyStore, Where

WORDS = ["budget", "rent", "savings", "holiday", "loan", "plan", "école", "naïve", "x"]

_step = st.tuples(
    st.sampled_from(["reply", "edit", "root", "streaming", "private", "choose", "delete"]),
    st.integers(min_value=0, max_value=10_000),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
)
_conversation = st.tuples(
    st.sampled_from(["ide-helper", "mediator", "paper-pilot"]),
    st.lists(_step, min_size=0, max_size=14),
    st.booleans(),  # a shared space with seats
)


def _build(store: AnyStore, where: Where, plan: list[tuple[str, list[Any], bool]]) -> None:
    """Play ``plan`` on ``store``: every tree operation the app does."""
    book = open_seat_book(where)
    try:
        for profile, steps, space in plan:
            meta = {"participants": ["Alex", "Sam"]} if space else {"project_root": "/p"}
            conversation = store.create_conversation(profile, " ".join(WORDS[:2]), meta)
            ids: list[str] = []
            for kind, pick, words in steps:
                text = " ".join(words)
                target = ids[pick % len(ids)] if ids else None
                if kind == "root" or target is None:
                    ids.append(store.add_message(conversation.id, "user", text, None).id)
                elif kind == "edit":
                    parent = store.get_message(target).parent_id
                    ids.append(store.add_message(conversation.id, "user", text, parent).id)
                elif kind == "streaming":
                    record = store.add_message(
                        conversation.id, "assistant", text, target, {"status": "streaming"}
                    )
                    ids.append(record.id)
                elif kind == "private":
                    record = store.add_message(
                        conversation.id,
                        "assistant",
                        text,
                        target,
                        {"visibility": "Alex", "tool_calls": [{"name": "reply", "args": {}}]},
                    )
                    ids.append(record.id)
                    store.accept_patch(record.id, f"p{pick}", "src/a.py", None, "ab" * 32)
                elif kind == "choose":
                    store.set_active_leaf(conversation.id, target)
                elif kind == "delete" and len(ids) > 2:
                    store.delete_branch(target)
                    alive = {r.id for r in store.list_messages(conversation.id)}
                    ids = [i for i in ids if i in alive]
                else:
                    ids.append(store.add_message(conversation.id, "assistant", text, target).id)
            if space:
                book.open_seats(conversation.id, ["Alex", "Sam"])
                first = book.enqueue(conversation.id, "Sam", "waiting words", shared=False)
                book.enqueue(conversation.id, "Alex", "more words", shared=True)
                book.mark_answering(first, ids[0] if ids else None)
    finally:
        book.close()


def _snapshot(store: AnyStore, where: Where) -> dict[str, Any]:
    """Everything a user could read back, by conversation."""
    book = open_seat_book(where)
    seen: dict[str, Any] = {}
    try:
        for conversation in store.list_conversations():
            records = store.list_messages(conversation.id)
            index = store.tree_index(conversation.id)
            leaf = store.active_leaf(conversation.id)
            seen[conversation.id] = {
                "conversation": conversation,
                "records": sorted(records, key=lambda r: r.id),
                "choices": store.branch_choices(conversation.id),
                "active": None if leaf is None else leaf.id,
                "alex": sorted(r.id for r in store.message_rows(conversation.id, "Alex")),
                "paths": {r.id: [p.id for p in store.path_to_root(r.id)] for r in records[-3:]},
                "leaves": index.leaf_count(),
                "patches": store.accepted_patches([r.id for r in records]),
                "seats": book.seats(conversation.id),
                "queued": book.queued(conversation.id),
            }
        seen["search"] = sorted(hit.message_id for hit in store.search("savings", limit=500))
    finally:
        book.close()
    return seen


def _facts(side: SqliteSide | PgSide) -> list[tuple[Any, ...]]:
    try:
        return side.facts()
    finally:
        side.close()


@pytest.fixture
def server(postgres_server: PostgresServer) -> PostgresServer:
    return postgres_server


@pytest.fixture
def folders(tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """A new SQLite file's path for each call (each generated case needs fresh ones)."""

    def new() -> Path:
        return tmp_path_factory.mktemp("migrate") / "weaver.db"

    return new


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    plan=st.lists(_conversation, min_size=1, max_size=3),
    facts=st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5), max_size=5),
)
def test_any_store_copied_to_the_server_and_back_reads_back_the_same(
    server: PostgresServer,
    folders: Callable[[], Path],
    plan: list[tuple[str, list[Any], bool]],
    facts: list[list[str]],
) -> None:
    sqlite_path = folders()
    url = fresh_schema_url(server)
    pg_where = StorageTarget(sqlite_path.parent, url)
    with open_store(sqlite_path) as store:
        _build(store, sqlite_path, plan)
        original = _snapshot(store, sqlite_path)
    remembered = [(" ".join(words), "c1", f"m{n}", 1000.5 + n) for n, words in enumerate(facts)]
    side = SqliteSide(sqlite_path)
    side.add_facts(remembered)
    side.close()

    first = migrate(SqliteSide(sqlite_path), PgSide(url))
    again = migrate(SqliteSide(sqlite_path), PgSide(url))  # idempotent: nothing new
    assert again.rows == first.rows
    assert first.rows["facts"] == len(remembered)
    assert _facts(PgSide(url)) == remembered  # a second copy added none again
    with open_store(pg_where) as copied:
        assert _snapshot(copied, pg_where) == original
        assert copied.count_conversations() == len(plan)

    back_path = folders()
    migrate(PgSide(url), SqliteSide(back_path))
    with open_store(back_path) as back:
        assert _snapshot(back, back_path) == original
    assert _facts(SqliteSide(back_path)) == remembered


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    answers=st.dictionaries(
        st.sampled_from(("Alex", "Élodie")),
        st.tuples(st.sampled_from(("agree", "partly", "disagree")), st.booleans()),
        min_size=1,
    ),
    decision=st.sampled_from((None, "allow", "refuse")),
)
def test_a_space_s_answers_and_consents_migrate_both_ways(
    server: PostgresServer,
    folders: Callable[[], Path],
    answers: dict[str, tuple[str, bool]],
    decision: str | None,
) -> None:
    from storage.space_books import answer_book_for, consent_book_for

    def read(store: Any, conversation_id: str) -> tuple[Any, ...]:
        book, asked = answer_book_for(store), consent_book_for(store)
        try:
            return (
                [(a.participant, a.answer, a.critique, a.shared) for a in book.answers(conversation_id, None, 2)],
                [(r.participant, r.decision, r.text) for r in asked.for_call("call-1")],
            )  # fmt: skip
        finally:
            book.close()
            asked.close()

    sqlite_path, url = folders(), fresh_schema_url(server)
    with open_store(sqlite_path) as store:
        space = store.create_conversation(
            "mediator", "t", meta={"participants": ["Alex", "Élodie"]}
        )
        user = store.add_message(space.id, "user", "hi", None, meta={"sender": "Alex"})
        statement = store.add_message(
            space.id, "tool", "S1", user.id, meta={"kind": "statement", "visibility": "shared"}
        )
        book, asked = answer_book_for(store), consent_book_for(store)
        for name, (value, shared) in answers.items():
            book.answer(space.id, statement.id, name, value, f"why {name}", shared=shared)
        asked.ask(space.id, "call-1", ["Élodie"], "post_to_shared", "what Élodie said")
        if decision is not None:
            asked.answer("call-1", "Élodie", decision)
        book.close()
        asked.close()
        original = read(store, space.id)

    migrate(SqliteSide(sqlite_path), PgSide(url))
    with open_store(StorageTarget(sqlite_path.parent, url)) as copied:
        assert read(copied, space.id) == original
    back_path = folders()
    migrate(PgSide(url), SqliteSide(back_path))
    with open_store(back_path) as back:
        assert read(back, space.id) == original
