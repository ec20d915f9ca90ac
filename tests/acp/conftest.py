"""``weaver-tui acp`` in a subprocess, driven by the ACP SDK's own client side.

``acp_agent(...)`` starts ``python -m weaver_tui [--profile P] acp`` in an isolated data
folder (as the CLI tests do) and yields a connection and a :class:`RecordingClient` that keeps
every session update and answers permission requests as told. The agent's stderr goes to a
file, so a test can show it when something fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from acp import PROTOCOL_VERSION, Client, spawn_agent_process, text_block
from acp.core import ClientSideConnection
from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    DeniedOutcome,
    RequestPermissionResponse,
    TextContentBlock,
)

from tests.cli.conftest import isolated_env

WAIT_S = 60.0
"""A generous limit for anything a test waits on (never a fixed sleep)."""


@dataclass
class RecordingClient:
    """An ACP client that records what the agent sends and answers permission requests with
    ``answer`` (an option id, or ``None`` to cancel the request)."""

    answer: str | None = "accept"
    updates: list[Any] = field(default_factory=list)
    permission_requests: list[Any] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def on_connect(self, conn: Any) -> None:
        pass

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update)
        self.changed.set()

    async def request_permission(
        self, options: list[Any], session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        self.permission_requests.append(tool_call)
        self.changed.set()
        if self.answer is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.answer)
        )

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
class AcpAgent:
    conn: ClientSideConnection
    client: RecordingClient
    stderr: Path

    async def start(self, cwd: Path) -> str:
        """Initialize and open a session in ``cwd``; return the session id."""
        await self.conn.initialize(protocol_version=PROTOCOL_VERSION)
        return (await self.conn.new_session(cwd=str(cwd), mcp_servers=[])).session_id

    async def ask(self, session_id: str, text: str) -> Any:
        return await asyncio.wait_for(
            self.conn.prompt(session_id=session_id, prompt=[text_block(text)]), WAIT_S
        )


AgentFactory = Callable[..., contextlib.AbstractAsyncContextManager[AcpAgent]]


@pytest.fixture
def acp_agent(tmp_path: Path) -> AgentFactory:
    """``async with acp_agent("--profile", "ide-helper", env={...}) as agent: ...``"""

    @contextlib.asynccontextmanager
    async def start(
        *options: str, env: dict[str, str] | None = None, answer: str | None = "accept"
    ) -> AsyncIterator[AcpAgent]:
        client = RecordingClient(answer=answer)
        stderr_path = tmp_path / "agent-stderr.txt"
        with stderr_path.open("wb") as stderr:
            # Client is a Protocol of every call an agent may make; this one answers only those the
            # tests need, and the connection answers any other with "method not found".
            async with spawn_agent_process(
                cast(Client, client),
                sys.executable,
                "-m",
                "weaver_tui",
                *options,
                "acp",
                env=isolated_env(tmp_path, **(env or {})),
                cwd=tmp_path,
                transport_kwargs={"stderr": stderr.fileno(), "shutdown_timeout": WAIT_S / 4},
            ) as (conn, _process):
                yield AcpAgent(conn, client, stderr_path)

    return start
