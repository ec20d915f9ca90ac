"""The client side of an ACP connection in the tests: what the agent sends about each
session goes to the test that opened it (:class:`SessionRouter`), which records it
(:class:`RecordingClient`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    DeniedOutcome,
    RequestPermissionResponse,
    TextContentBlock,
)

WAIT_S = 60.0
"""A generous limit for anything a test waits on (never a fixed sleep)."""


@dataclass
class RecordingClient:
    """What the agent sent about one test's sessions; permission requests are answered with
    ``answer`` (an option id, or ``None`` to cancel the request), forms
    (``elicitation/create``) with ``form_answer``, sent back as it is (any JSON value)."""

    answer: str | None = "accept"
    form_answer: Any = None
    """Sent back as it is (any JSON value), awaited first when it is a future, raised when it
    is an error; a callable is asked for the answer to each form's message."""
    forms: list[tuple[str, Any]] = field(default_factory=list)
    """Each form asked: its message and its mode (session, tool call, schema)."""
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

    async def form(self, message: str, mode: Any) -> Any:
        """Record the form; answer ``form_answer`` (awaited first when it is a future: a
        form the user has not answered yet)."""
        self.forms.append((message, mode))
        self.changed.set()
        answer = self.form_answer(message) if callable(self.form_answer) else self.form_answer
        if isinstance(answer, asyncio.Future):
            return await answer
        if isinstance(answer, BaseException):  # the client answers with a JSON-RPC error
            raise answer
        return answer

    def forget(self) -> None:
        """Drop what was recorded so far (the sessions stay this client's)."""
        self.updates.clear()
        self.permission_requests.clear()
        self.forms.clear()

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

    async def create_elicitation(self, message: str, mode: Any, **kwargs: Any) -> Any:
        client = self.owner(str(getattr(mode, "session_id", "")))
        if client is None:
            self.strays.append((str(getattr(mode, "session_id", "")), message))
            return {"action": "cancel"}
        return await client.form(message, mode)
