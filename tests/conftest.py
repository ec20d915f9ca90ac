"""Fixtures shared by every test area: a real SQLite store on ``tmp_path``, the fake
OpenAI-compatible server (``fake_openai``, from :mod:`tests.support.fake_openai`) and the
knowledge server on the shipped notes a worker's tests share (``notes_url``, from
:mod:`tests.support.shared_notes`)."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from storage.sqlite_store import SqliteConversationStore
from tests.support import cpu_report, pilot_waits, precompile, shared_stylesheets
from tests.support.fake_openai import FakeOpenAI, fake_openai
from tests.support.postgres_server import postgres_server, postgres_url
from tests.support.retry_waits import RecordedWaits
from tests.support.shared_notes import notes_url

__all__ = [
    "fake_openai",
    "notes_url",
    "openai_model",
    "postgres_server",
    "postgres_url",
    "researcher",
    "retry_waits",
    "store",
]

_PROVIDER_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "MOONSHOT_API_KEY",
    "DEEPSEEK_API_KEY",
    "DASHSCOPE_API_KEY",
    "AGENT_LOG_REDACT_CONTENT",
)


MINUTES_LONG = ("tests/benchmarks_smoke/",)
"""Tests that take minutes each (whole benchmark scripts in child processes)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    cpu_report.add_option(parser)


def pytest_configure(config: pytest.Config) -> None:
    cpu_report.register(config)
    shared_stylesheets.install()
    pilot_waits.install()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before collecting."""
    precompile.for_workers(session.config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that take minutes first: pytest-xdist's work stealing (``scripts/test``) then
    gives the other workers the short ones meanwhile, instead of leaving one worker alone
    with a long test at the end. The rest keep their order. They carry the ``bench`` marker:
    a plain ``pytest`` (the quick loop) leaves them out, ``scripts/test`` (and so CI) runs them."""
    for item in items:
        if item.nodeid.startswith(MINUTES_LONG):
            item.add_marker(pytest.mark.bench)
    items.sort(key=lambda item: not item.nodeid.startswith(MINUTES_LONG))


@pytest.hookimpl(wrapper=True)
def pytest_collection() -> Generator[None, object, object]:
    """Collect without the garbage collector, then set aside from it every object alive (the
    imported libraries, the collected tests): collecting makes almost only objects that live
    until the process ends, so each collection pass during it, and each full pass afterwards,
    would walk them all again for nothing. Objects the tests make are collected as before."""
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


@pytest.fixture(autouse=True)
def _isolated_environment(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test runs as a new user: no real config, data folder or provider key of the machine."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))

    for name in list(os.environ):
        if name.startswith("WEAVER_") or name in _PROVIDER_ENV:
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def retry_waits(monkeypatch: pytest.MonkeyPatch) -> RecordedWaits:
    """The waits model calls ask for before a retry, recorded and not slept (in every test)."""
    import agents.providers.transient_retry as transient_retry

    waits = RecordedWaits()
    monkeypatch.setattr(transient_retry, "DEFAULT_POLICY", waits.policy())
    return waits


@pytest.fixture(autouse=True)
def _tools_not_emulated() -> Iterator[None]:
    """No test inherits another's endpoints remembered as taking no tools (the fake server's
    address can repeat)."""
    from agents.graph.emulated_tools import forget_emulation

    forget_emulation()
    yield
    forget_emulation()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteConversationStore]:
    """A fresh conversation store in ``tmp_path/weaver.db``, closed after the test."""
    db = SqliteConversationStore(tmp_path / "weaver.db")
    try:
        yield db
    finally:
        db.close()


@pytest.fixture
def openai_model(fake_openai: FakeOpenAI) -> Callable[..., ChatModelHandle]:
    """Build a real ``ChatOpenAI`` handle on the fake server (optionally with a short timeout)."""

    def build(timeout: float = 10.0) -> ChatModelHandle:
        config = ProviderConfig(
            provider="openai-compatible",
            model="fake-model",
            base_url=fake_openai.base_url,
            api_key=SecretStr("sk-test-not-a-real-key"),
            timeout=timeout,
        )
        return make_chat_model(config)

    return build


@pytest.fixture
def researcher(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test-only ``researcher`` profile (a plain agent ⇄ tools loop with a notes
    search) for this test; its name."""
    import agents.profile_registry as registry
    from tests.support.profiles import PACKAGE, RESEARCHER

    packages = {**registry.PROFILE_PACKAGES, RESEARCHER: PACKAGE}
    monkeypatch.setattr(registry, "PROFILE_PACKAGES", packages)
    monkeypatch.setattr(registry, "PROFILE_NAMES", tuple(packages))
    return RESEARCHER
