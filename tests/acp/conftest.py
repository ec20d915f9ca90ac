"""``weaver-tui acp`` in a subprocess, driven by the ACP SDK's own client side.

Starting an agent costs seconds of CPU (Python, the SDK, the graph libraries), so the tests of
this package share one agent process per configuration (started on first use by each pytest
worker, ended when the worker leaves the package):

- ``ide_helper_agent``: ide-helper on the package's fake OpenAI server (``fake_openai`` here is
  that server, its queue and its recorded requests emptied for each test);
- ``offline_agent``: paper-pilot on the offline model.

Each test still gets its own state: a :class:`RecordingClient` that receives only the updates
and permission requests of the sessions the test opened or loaded (through :class:`AcpAgent`),
its own project folder (its ``tmp_path`` as the sessions' cwd) and its own conversations (found
by session id in the process's store, ``AcpAgent.data_dir``). The sessions a test leaves open
are closed when it ends, so their MCP servers end with the test.

``acp_agent(...)`` starts a process for one test: for a configuration of its own (a config
file, another profile or provider) or where the process itself is what is tested.

Every test module here runs on the package's event loop (``pytestmark``), the loop the shared
connections live on.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_asyncio
from acp import PROTOCOL_VERSION, Client, RequestError, spawn_agent_process, text_block
from acp.core import ClientSideConnection
from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    DeniedOutcome,
    RequestPermissionResponse,
    TextContentBlock,
)

from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import isolated_env
from tests.support.fake_openai import FakeOpenAI

WAIT_S = 60.0
"""A generous limit for anything a test waits on (never a fixed sleep)."""

KEY = "sk-acp-test-key-0123456789"


def server_env(fake_openai: FakeOpenAI) -> dict[str, str]:
    """The environment that points an agent at the fake OpenAI server."""
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": KEY,
        "WEAVER_MODEL": "fake-model",
    }


@dataclass
class RecordingClient:
    """What the agent sent about one test's sessions; permission requests are answered with
    ``answer`` (an option id, or ``None`` to cancel the request)."""

    answer: str | None = "accept"
    sessions: set[str] = field(default_factory=set)
    updates: list[Any] = field(default_factory=list)
    permission_requests: list[Any] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def record_update(self, update: Any) -> None:
        self.updates.append(update)
        self.changed.set()

    def permission(self, tool_call: Any) -> RequestPermissionResponse:
        self.permission_requests.append(tool_call)
        self.changed.set()
        if self.answer is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.answer)
        )

    def forget(self) -> None:
        """Drop what was recorded so far (the sessions stay this client's)."""
        self.updates.clear()
        self.permission_requests.clear()

    async def wait_for(self, condition: Callable[[], bool]) -> None:
        async def until() -> None:
            while not condition():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(until(), WAIT_S)

    def of_kind(self, kind: str) -> list[Any]:
        return [u for u in self.updates if u.session_update == kind]

    def agent_text(self) -> str:
        return "".join(
            u.content.text
            for u in self.updates
            if isinstance(u, AgentMessageChunk) and isinstance(u.content, TextContentBlock)
        )


@dataclass
class SessionRouter:
    """The client side of one connection: each session's updates and permission requests go
    to the test's client that opened the session. Anything about a session no test holds is
    kept in ``strays`` (a permission request of one is cancelled), and fails the test running
    then: a session a test closed must stay silent."""

    clients: list[RecordingClient] = field(default_factory=list)
    strays: list[tuple[str, Any]] = field(default_factory=list)

    def owner(self, session_id: str) -> RecordingClient | None:
        return next((c for c in self.clients if session_id in c.sessions), None)

    def on_connect(self, conn: Any) -> None:
        pass

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        client = self.owner(session_id)
        if client is None:
            self.strays.append((session_id, update))
        else:
            client.record_update(update)

    async def request_permission(
        self, options: list[Any], session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        client = self.owner(session_id)
        if client is None:
            self.strays.append((session_id, tool_call))
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return client.permission(tool_call)


@dataclass
class AgentProcess:
    """One running ``weaver-tui acp`` and its connection."""

    conn: ClientSideConnection
    router: SessionRouter
    stderr: Path
    data_dir: Path


@dataclass
class AcpAgent:
    """One test's view of an agent process: its sessions, its client, its part of stderr."""

    process: AgentProcess
    client: RecordingClient
    stderr_from: int = 0

    @property
    def conn(self) -> ClientSideConnection:
        return self.process.conn

    @property
    def data_dir(self) -> Path:
        return self.process.data_dir

    def stderr_text(self) -> str:
        """What the agent wrote to stderr since this test began."""
        with self.process.stderr.open("rb") as stderr:
            stderr.seek(self.stderr_from)
            return stderr.read().decode("utf-8", "replace")

    def open_store(self) -> SqliteConversationStore:
        return SqliteConversationStore(self.data_dir / "weaver.db")

    async def new_session(self, cwd: Path, mcp_servers: list[Any] | None = None) -> str:
        session = await self.conn.new_session(cwd=str(cwd), mcp_servers=mcp_servers or [])
        self.client.sessions.add(session.session_id)
        return session.session_id

    async def load(self, cwd: Path, session_id: str) -> None:
        """``session/load``: the replayed updates come to this test's client."""
        self.client.sessions.add(session_id)
        await self.conn.load_session(cwd=str(cwd), session_id=session_id, mcp_servers=[])

    async def start(self, cwd: Path, mcp_servers: list[Any] | None = None) -> str:
        """Initialize and open a session in ``cwd``; return the session id."""
        await self.conn.initialize(protocol_version=PROTOCOL_VERSION)
        return await self.new_session(cwd, mcp_servers)

    async def ask(self, session_id: str, text: str) -> Any:
        return await asyncio.wait_for(
            self.conn.prompt(session_id=session_id, prompt=[text_block(text)]), WAIT_S
        )

    async def close_sessions(self) -> None:
        """Close the sessions this test still holds (their MCP servers end with them)."""
        for session_id in sorted(self.client.sessions):
            with contextlib.suppress(RequestError):  # closed by the test already
                await asyncio.wait_for(self.conn.close_session(session_id=session_id), WAIT_S)


def session_conversation(store: SqliteConversationStore, session_id: str) -> Conversation:
    """The one conversation an ACP session started."""
    [conversation] = [
        c for c in store.list_conversations() if c.meta.get("acp_session") == session_id
    ]
    return conversation


@contextlib.asynccontextmanager
async def agent_process(
    folder: Path, *options: str, env: dict[str, str] | None = None
) -> AsyncIterator[AgentProcess]:
    """``python -m weaver_tui [options] acp`` with ``folder`` as its home (data, config,
    stderr); ends when the client closes its stdin."""
    router = SessionRouter()
    stderr_path = folder / "agent-stderr.txt"
    # A shared process starts before any test's own isolation (tests/conftest.py), so it gets
    # a home of its own here: no config or data of the machine's user.
    home = folder / "home"
    xdg = {
        f"XDG_{kind}_HOME": str(home / kind.lower())
        for kind in ("CONFIG", "DATA", "STATE", "CACHE")
    }
    with stderr_path.open("wb") as stderr:
        # Client is a Protocol of every call an agent may make; the router answers only those
        # the tests need, and the connection answers any other with "method not found".
        async with spawn_agent_process(
            cast(Client, router),
            sys.executable,
            "-m",
            "weaver_tui",
            *options,
            "acp",
            env=isolated_env(folder, **xdg, **(env or {})),
            cwd=folder,
            transport_kwargs={"stderr": stderr.fileno(), "shutdown_timeout": WAIT_S / 4},
        ) as (conn, _process):
            yield AgentProcess(conn, router, stderr_path, folder / "data")


@contextlib.asynccontextmanager
async def view_of(process: AgentProcess, answer: str | None = "accept") -> AsyncIterator[AcpAgent]:
    """A test's view of ``process``; its sessions are closed when the test ends."""
    client = RecordingClient(answer=answer)
    agent = AcpAgent(process, client, process.stderr.stat().st_size)
    process.router.clients.append(client)
    try:
        yield agent
    finally:
        try:
            await agent.close_sessions()
        finally:
            process.router.clients.remove(client)
        strays, process.router.strays = process.router.strays, []
        assert not strays, f"the agent sent updates about sessions no test holds: {strays}"


AgentFactory = Callable[..., contextlib.AbstractAsyncContextManager[AcpAgent]]


@pytest.fixture
def acp_agent(tmp_path: Path) -> AgentFactory:
    """``async with acp_agent("--profile", "ide-helper", env={...}) as agent: ...``: a
    process of the test's own, in ``tmp_path``."""

    @contextlib.asynccontextmanager
    async def start(
        *options: str, env: dict[str, str] | None = None, answer: str | None = "accept"
    ) -> AsyncIterator[AcpAgent]:
        async with (
            agent_process(tmp_path, *options, env=env) as process,
            view_of(process, answer) as agent,
        ):
            yield agent

    return start


@pytest.fixture(scope="package")
def package_openai() -> Iterator[FakeOpenAI]:
    """The fake OpenAI server of this package's agents."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fake_openai(package_openai: FakeOpenAI) -> FakeOpenAI:
    """The package's fake server, as new for this test: no queued reply, no request seen."""
    package_openai.reset()
    return package_openai


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def ide_helper_process(
    tmp_path_factory: pytest.TempPathFactory, package_openai: FakeOpenAI
) -> AsyncIterator[AgentProcess]:
    folder = tmp_path_factory.mktemp("acp-ide-helper")
    env = server_env(package_openai)
    async with agent_process(folder, "--profile", "ide-helper", env=env) as process:
        yield process


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def offline_process(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[AgentProcess]:
    folder = tmp_path_factory.mktemp("acp-offline")
    async with agent_process(
        folder, "--profile", "paper-pilot", "--provider", "offline"
    ) as process:
        yield process


@pytest_asyncio.fixture(loop_scope="package")
async def ide_helper_agent(
    ide_helper_process: AgentProcess, fake_openai: FakeOpenAI
) -> AsyncIterator[AcpAgent]:
    """This test's view of the shared ide-helper agent (on ``fake_openai``)."""
    async with view_of(ide_helper_process) as agent:
        yield agent


@pytest_asyncio.fixture(loop_scope="package")
async def offline_agent(offline_process: AgentProcess) -> AsyncIterator[AcpAgent]:
    """This test's view of the shared paper-pilot agent on the offline model."""
    async with view_of(offline_process) as agent:
        yield agent
