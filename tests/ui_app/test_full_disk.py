"""The disk fills up while a reply is written: the app shows the one sentence (on the reply and
as a notification), the reply is marked failed with what was written, the question kept."""

from __future__ import annotations

from pathlib import Path

from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.full_disk import fill_disk, integrity
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send

BIG_PIECE = " ".join(f"term{i}" for i in range(40_000))


async def test_a_full_disk_mid_reply_shows_one_sentence_and_marks_the_reply(
    weaver_env: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply(deltas=["The answer ", "begins. ", BIG_PIECE], token_delay=0.2))
    services = build_services(
        provider="openai-compatible",
        base_url=fake_openai.base_url,
        api_key="sk-test-not-a-real-key",
        model="fake-model",
        http_timeout=10,
    )
    try:
        app = new_app(services, profile="ide-helper")
        async with app.run_test(size=SIZE) as pilot:
            screen = chat(app)
            sqlite_store = services.store
            assert isinstance(sqlite_store, SqliteConversationStore)
            fill_disk(sqlite_store, spare_pages=10)
            await send(pilot, "hello?")
            failed = screen.messages.items[-1]
            assert failed.status == "error"
            assert "full" in failed.error
            assert "free some space" in failed.error
            assert "\n" not in failed.error
            notices = [n.message for n in app._notifications]
            assert any(failed.error in n for n in notices), notices
            stored = services.store.get_message(failed.id)
            assert stored.status is MessageStatus.ERROR
            assert stored.content == "The answer begins. "
            question = services.store.get_message(stored.parent_id or "")
            assert question.content == "hello?"
            assert integrity(sqlite_store) == "ok"
    finally:
        services.close_store()
