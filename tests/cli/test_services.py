"""``Services``: one store, a switchable model, and one runtime opened lazily and shared."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.models import MessageStatus
from tests.runtime.helpers import finish_of
from tests.support.fake_openai import FakeOpenAI
from weaver_tui.core.services import Services
from weaver_tui.core.settings.config import load_settings

pytestmark = pytest.mark.usefixtures("researcher")


@pytest.fixture
def services(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    for name in ("WEAVER_PROVIDER", "WEAVER_API_KEY", "WEAVER_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    root = logging.getLogger()
    before = list(root.handlers)
    settings = load_settings(
        config_file=tmp_path / "config.yaml",
        env_file=None,
        data_dir=tmp_path / "data",
        provider="offline",
    )
    made = Services(settings)
    yield made
    made.close_store()
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()


async def test_runtime_is_opened_once_and_shared(services: Services) -> None:
    async with services.runtime() as outer, services.runtime() as inner:
        assert outer is inner
        assert outer.store is services.store
    async with services.runtime() as again:
        assert again is not outer  # the outermost exit closed it; a new one opens on demand
    await services.aclose()


async def test_switch_model_applies_to_the_next_turn(
    services: Services, fake_openai: FakeOpenAI
) -> None:
    assert services.model.provider == "offline"
    store = services.store
    conversation = store.create_conversation("researcher", "t")
    user = store.add_message(conversation.id, "user", "What is BM25?", None)
    fake_openai.script("BM25 ranks by term frequency.")

    async with services.runtime() as runtime:
        first = [
            e
            async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=services.model
            )
        ]
        handle = services.switch_model(
            "openai-compatible", "fake-model", base_url=fake_openai.base_url, api_key="k"
        )
        assert handle.provider == "openai-compatible"
        assert services.model is handle
        second = [
            e
            async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=services.model
            )
        ]

    replies = store.siblings(finish_of(second).leaf_id)
    assert [r.meta["provider"] for r in replies if r.role == "assistant"][-1] == "openai-compatible"
    assert store.get_message(finish_of(first).leaf_id).meta["provider"] == "offline"
    assert store.get_message(finish_of(second).leaf_id).content == "BM25 ranks by term frequency."
    await services.aclose()


def test_opening_marks_replies_a_dead_process_left_streaming(
    services: Services, tmp_path: Path
) -> None:
    writer = (
        "import sys; from storage.sqlite_store import SqliteConversationStore\n"
        "s = SqliteConversationStore(sys.argv[1])\n"
        "c = s.create_conversation('paper-pilot', 't')\n"
        "u = s.add_message(c.id, 'user', 'hi', None)\n"
        "r = s.add_message(c.id, 'assistant', 'half a rep', u.id, meta={'status': 'streaming'})\n"
        "print(r.id)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", writer, str(tmp_path / "data" / "weaver.db")],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parents[2],
    )
    reply_id = done.stdout.strip()

    reply = services.store.get_message(reply_id)  # the first use opens the store

    assert reply.status is MessageStatus.CANCELLED
    assert reply.content == "half a rep"


def test_provider_key_variables_are_scrubbed_from_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "moonshot-secret-value-42"
    monkeypatch.setenv("MOONSHOT_API_KEY", secret)
    root = logging.getLogger()
    before = list(root.handlers)
    settings = load_settings(
        config_file=tmp_path / "c.yaml", env_file=None, data_dir=tmp_path / "d", provider="offline"
    )
    made = Services(settings)
    try:
        logging.getLogger("agents.providers").warning("request failed with key %s", secret)
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
                handler.close()
    text = (tmp_path / "d" / "weaver.log").read_text(encoding="utf-8")
    assert "request failed with key [REDACTED]" in text
    assert secret not in text
    assert made.log_path == tmp_path / "d" / "weaver.log"


def test_two_threads_asking_for_the_model_at_once_share_one_build(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warm-up thread and a first turn may both ask while the model is being built: the
    second waits for the first build instead of making a model (and clients) of its own."""
    import threading

    import agents.providers as providers

    build = providers.make_chat_model
    builds: list[str] = []
    first_builds, second_waits = threading.Event(), threading.Event()

    class WatchedLock:
        """The services' lock, noting when a second caller has to wait for it."""

        def __init__(self) -> None:
            self._lock = threading.Lock()

        def __enter__(self) -> None:
            if not self._lock.acquire(blocking=False):
                second_waits.set()
                self._lock.acquire()

        def __exit__(self, *exc: object) -> None:
            self._lock.release()

    def slow_build(config: object) -> object:
        builds.append(threading.current_thread().name)
        first_builds.set()
        if len(builds) == 1:  # the first build lasts until the other caller has arrived
            assert second_waits.wait(timeout=30), "the second caller never asked"
        return build(config)  # type: ignore[arg-type]

    monkeypatch.setattr(providers, "make_chat_model", slow_build)
    monkeypatch.setattr(services, "_model_lock", WatchedLock())
    handles: dict[str, object] = {}

    def ask(name: str) -> None:
        handles[name] = services.model

    threads = [threading.Thread(target=ask, args=(n,), name=n) for n in ("warm-up", "turn")]
    threads[0].start()
    assert first_builds.wait(timeout=30)  # the first caller is building when the second asks
    threads[1].start()
    for thread in threads:
        thread.join(timeout=60)
    assert builds == ["warm-up"]
    assert handles["warm-up"] is handles["turn"] is services.model
