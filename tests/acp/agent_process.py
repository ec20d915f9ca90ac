"""A ``weaver-tui acp`` process (:func:`agent_process`) and one test's view of it
(:func:`view_of`): its sessions, its recorded updates, its part of the agent's stderr."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from acp import PROTOCOL_VERSION, Client, RequestError, spawn_agent_process, text_block
from acp.core import ClientSideConnection
from acp.schema import (
    ClientCapabilities,
    ElicitationCapabilities,
    ElicitationFormCapabilities,
)

from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from tests.acp.recording_client import WAIT_S, RecordingClient, SessionRouter
from tests.cli.conftest import isolated_env
from tests.support.fake_openai import FakeOpenAI, Reply

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

    @contextlib.contextmanager
    def as_its_user(self) -> Iterator[None]:
        """This test acting as the agent's user, with the agent's state folder (so its
        authority key): a patch accepted meanwhile is one that user accepted there."""
        state = self.data_dir.parent / "home" / "state"
        was = os.environ.get("XDG_STATE_HOME")
        os.environ["XDG_STATE_HOME"] = str(state)
        try:
            yield
        finally:
            if was is None:
                del os.environ["XDG_STATE_HOME"]
            else:
                os.environ["XDG_STATE_HOME"] = was

    async def new_session(self, cwd: Path, mcp_servers: list[Any] | None = None) -> str:
        session = await self.conn.new_session(cwd=str(cwd), mcp_servers=mcp_servers or [])
        self.client.sessions.add(session.session_id)
        return session.session_id

    async def load(self, cwd: Path, session_id: str) -> None:
        """``session/load``: the replayed updates come to this test's client."""
        self.client.sessions.add(session_id)
        await self.conn.load_session(cwd=str(cwd), session_id=session_id, mcp_servers=[])

    async def start(
        self, cwd: Path, mcp_servers: list[Any] | None = None, *, forms: bool = False
    ) -> str:
        """Initialize (a client that shows forms, with ``forms``) and open a session in
        ``cwd``; return the session id."""
        capabilities = (
            ClientCapabilities(
                elicitation=ElicitationCapabilities(form=ElicitationFormCapabilities())
            )
            if forms
            else None
        )
        await self.conn.initialize(
            protocol_version=PROTOCOL_VERSION, client_capabilities=capabilities
        )
        return await self.new_session(cwd, mcp_servers)

    async def ask(self, session_id: str, text: str) -> Any:
        return await asyncio.wait_for(
            self.conn.prompt(session_id=session_id, prompt=[text_block(text)]), WAIT_S
        )

    async def prompt_mid_reply(
        self, cwd: Path, fake_openai: FakeOpenAI
    ) -> tuple[str, asyncio.Future[Any]]:
        """Open a session in ``cwd`` and send a prompt whose reply is still streaming when this
        returns: held at the fake server after its third word (its release never comes).
        Returns the session id and the prompt's pending response."""
        fake_openai.script(Reply.from_tokens([f"word{i} " for i in range(2000)], holds=(3,)))
        session = await self.start(cwd)
        prompt = asyncio.ensure_future(
            self.conn.prompt(session_id=session, prompt=[text_block("Talk for a long time")])
        )
        await self.client.wait_for(lambda: "word2 " in self.client.agent_text())
        return session, prompt

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
    folder: Path, *options: str, env: dict[str, str] | None = None, module: str = "weaver_tui"
) -> AsyncIterator[AgentProcess]:
    """``python -m weaver_tui [options] acp`` with ``folder`` as its home (data, config,
    stderr); ends when the client closes its stdin. ``module``: another entry point that runs
    the command (``tests.support.loop_imports`` watches it)."""
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
            module,
            *options,
            "acp",
            env=isolated_env(folder, **xdg, **(env or {})),
            cwd=folder,
            transport_kwargs={"stderr": stderr.fileno(), "shutdown_timeout": WAIT_S / 4},
            use_unstable_protocol=True,  # a client may answer forms (``elicitation/create``)
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
"""``acp_agent``: ``async with acp_agent(*options, env=..., answer=...) as agent``."""
