"""A provider error that quotes the API key shows on screen (inline and as a notification)
without it."""

from __future__ import annotations

from pathlib import Path

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, build_services, chat, new_app, send

KEY = "screenOnlySecret0042"


async def test_the_error_on_screen_holds_no_key(weaver_env: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.http_error(400, f"The key {KEY} may not use this model."))
    services = build_services(
        provider="openai-compatible",
        base_url=fake_openai.base_url,
        api_key=KEY,
        model="fake-model",
        http_timeout=10,
    )
    try:
        app = new_app(services, profile="atom-developer")
        async with app.run_test(size=SIZE) as pilot:
            screen = chat(app)
            await send(pilot, "hello?")
            failed = screen.messages.items[-1]
            assert failed.status == "error"
            assert "may not use this model" in failed.error
            assert KEY not in failed.error
            notices = [n.message for n in app._notifications]
            assert notices
            assert all(KEY not in n for n in notices)
            assert KEY not in str(services.store.get_message(failed.id).meta)
    finally:
        services.close_store()
