"""The app on a PostgreSQL server (``WEAVER_STORAGE__URL``): a message sent in the chat screen
is stored on the server with its reply, the turn's lock on the server is free once it ends,
and nothing goes to the data folder's SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.backend import StorageTarget, turn_locks
from storage.pg_store import PgConversationStore
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send


async def test_a_chat_turn_in_the_app_is_stored_on_the_server(
    weaver_env: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEAVER_STORAGE__URL", postgres_url)
    services = build_services(provider="offline")
    try:
        assert isinstance(services.store, PgConversationStore)
        app = new_app(services, profile="ide-helper")
        async with app.run_test(size=SIZE) as pilot:
            await send(pilot, "list the files")
            screen = chat(pilot.app)
            reply = screen.messages.items[-1]
            assert reply.status == "complete"
            conversation = screen.state.conversation
            assert conversation is not None
        with PgConversationStore(postgres_url) as store:
            contents = [r.content for r in store.list_messages(conversation.id)]
        assert contents[0] == "list the files"
        assert len(contents) >= 2
        assert not turn_locks(StorageTarget(weaver_env, postgres_url)).busy(conversation.id)
        assert not (weaver_env / "data" / "weaver.db").exists()
    finally:
        services.close_store()
