"""The MCP client of a paper-pilot turn: one session to the knowledge server, opened on first use.

The connection comes from the user's config (``mcp.connections``, the shape of
langchain-mcp-adapters' ``MultiServerMCPClient``: ``transport`` ``stdio`` with ``command``,
``args``, ``cwd``, ``env``, or ``streamable_http`` with ``url``); without one, the embedded
server (:mod:`.server`) is started on the user's index. A stdio session lives in anyio task
scopes that must open and close in one task, while a turn's retrievals run in several graph
nodes, so one background task owns the session and serves calls from a queue. A session serves
the turns that follow too (starting a server costs far more than a turn) and closes itself
when idle.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.profiles.paper_pilot.knowledge.capped_stdio import capped_stdio_session
from agents.profiles.paper_pilot.knowledge.index import Chunk
from storage.printable import printable

logger = logging.getLogger(__name__)

CALL_TIMEOUT_S = 30.0
START_TIMEOUT_S = 30.0
IDLE_TIMEOUT_S = 120.0
EMBEDDED = "weaver-knowledge"


class KnowledgeError(Exception):
    """The knowledge server cannot be reached or answered with an error (one sentence)."""


def embedded_connection(index: Path) -> dict[str, Any]:
    """The stdio connection that runs weaver-tui's own knowledge server on ``index``."""
    env = {k: v for k in ("HOME", "PATH", "PYTHONPATH", "LANG") if (v := os.environ.get(k))}
    return {
        "transport": "stdio",
        "command": sys.executable,
        "args": ["-m", "agents.profiles.paper_pilot.knowledge.server", "--index", str(index),
                 "--sample"],
        "env": env,
    }  # fmt: skip


def chosen_connection(settings: Mapping[str, Any], index: Path) -> tuple[str, dict[str, Any]]:
    """The user's configured server (``mcp.server``, else the first of ``mcp.connections``),
    else the embedded one."""
    mcp = settings.get("mcp") or {}
    connections = dict(mcp.get("connections") or {})
    if not connections:
        return EMBEDDED, embedded_connection(index)
    name = str(mcp.get("server") or next(iter(connections)))
    if name not in connections:
        raise KnowledgeError(
            f"mcp.server names {name!r}, which is not one of mcp.connections "
            f"({', '.join(connections)}); fix config.yaml."
        )
    connection = dict(connections[name])
    connection.setdefault("transport", "stdio")
    if connection["transport"] == "stdio":
        # The user's own server inherits a safe environment plus what they configured.
        from mcp.client.stdio import get_default_environment

        connection["env"] = {**get_default_environment(), **dict(connection.get("env") or {})}
    return name, connection


class KnowledgeClient:
    """Calls the knowledge server's tools over one session; ``aclose`` ends it."""

    def __init__(self, name: str, connection: Mapping[str, Any]) -> None:
        self.name = name
        self.connection = dict(connection)
        self._queue: asyncio.Queue[tuple[str, dict[str, Any], asyncio.Future[Any]] | None] = (
            asyncio.Queue()
        )
        self._ready: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None

    async def _serve(self) -> None:
        assert self._ready is not None
        try:
            async with self._open_session() as session:
                self._ready.set_result(None)
                while True:
                    try:
                        item = await asyncio.wait_for(self._queue.get(), IDLE_TIMEOUT_S)
                    except TimeoutError:
                        return
                    if item is None:
                        return
                    tool, args, answer = item
                    try:
                        result = await asyncio.wait_for(
                            _call_tool(session, tool, args), CALL_TIMEOUT_S
                        )
                    except (
                        TimeoutError
                    ):  # a server that hangs is stopped; the next call restarts it
                        if not answer.done():
                            answer.set_exception(KnowledgeError(
                                f"The knowledge server {self.name!r} did not answer {tool} "
                                f"within {CALL_TIMEOUT_S:g} s, so it was stopped; ask again, "
                                "or check the server."
                            ))  # fmt: skip
                        return
                    except Exception as exc:  # noqa: BLE001 (a call's failure belongs to that call)
                        if not answer.done():
                            answer.set_exception(exc)
                        continue
                    if not answer.done():
                        answer.set_result(result)
        except Exception as exc:  # noqa: BLE001 (any failure of the server task goes to its waiter)
            if not self._ready.done():
                self._ready.set_exception(exc)
            else:
                logger.warning("knowledge session ended", extra={"error": str(exc)})
        finally:
            if not self._ready.done():
                self._ready.set_exception(KnowledgeError("the knowledge session ended"))

    def _open_session(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """A stdio server through the capped transport (see :mod:`.capped_stdio`), any other
        through langchain-mcp-adapters."""
        if self.connection.get("transport", "stdio") == "stdio":
            return capped_stdio_session(self.connection)
        from langchain_mcp_adapters.client import MultiServerMCPClient

        client = MultiServerMCPClient({self.name: self.connection})  # type: ignore[dict-item]
        return client.session(self.name)

    @property
    def usable(self) -> bool:
        """False once the session ended (closed, idle, or the server went away)."""
        return self._task is None or not self._task.done()

    async def _start(self) -> None:
        if self._task is None:
            self._ready = asyncio.get_running_loop().create_future()
            self._task = asyncio.create_task(self._serve(), name=f"mcp:{self.name}")
        assert self._ready is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), START_TIMEOUT_S)
        except Exception as exc:
            raise KnowledgeError(
                f"The knowledge server {self.name!r} could not be started or reached "
                f"({_reason(exc)}); check mcp.connections in config.yaml, or remove it to use "
                "the built-in knowledge base."
            ) from exc

    async def call(self, tool: str, args: dict[str, Any]) -> Any:
        """The tool's answer, JSON-decoded when it is JSON text; raises :class:`KnowledgeError`."""
        await self._start()
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((tool, args, answer))
        try:
            result = await asyncio.wait_for(answer, CALL_TIMEOUT_S + 5)
        except KnowledgeError:
            raise
        except Exception as exc:
            raise KnowledgeError(
                f"The knowledge server {self.name!r} failed on {tool} ({_reason(exc)})."
            ) from exc
        text = "\n".join(
            block.text for block in getattr(result, "content", []) if hasattr(block, "text")
        )
        if getattr(result, "isError", False):
            raise KnowledgeError(f"The knowledge server {self.name!r} answered {tool} with an "
                                 f"error: {printable(text)[:300] or 'no detail'}.")  # fmt: skip
        try:
            return printable_answer(json.loads(text))
        except ValueError:
            return printable(text)

    async def query(self, query: str, top_k: int = 5) -> list[Chunk]:
        """The server's best chunks for ``query``."""
        answer = await self.call("query_knowledge_hub", {"query": query, "top_k": top_k})
        return chunks_of(answer)

    async def aclose(self) -> None:
        if self._task is None:
            return
        await self._queue.put(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._task, 10)
        if not self._task.done():
            self._task.cancel()
        self._task = None


def printable_answer(answer: Any) -> Any:
    """A decoded answer with every string in it printable: an MCP server is untrusted, and what
    it says reaches the model, the tool pane and the reply (JSON's ``\\u001b`` decodes to an
    escape character, so this runs after decoding)."""
    if isinstance(answer, str):
        return printable(answer)
    if isinstance(answer, Mapping):
        return {printable_answer(key): printable_answer(value) for key, value in answer.items()}
    if isinstance(answer, list):
        return [printable_answer(item) for item in answer]
    return answer


def chunks_of(answer: Any) -> list[Chunk]:
    """Chunks from a ``query_knowledge_hub`` answer: ``{"results": [...]}``, a list, or text."""
    rows = answer.get("results") if isinstance(answer, Mapping) else answer
    if isinstance(rows, str):
        return [Chunk("result", "Knowledge server", "", rows)] if rows.strip() else []
    chunks = []
    for row in rows or []:
        if not isinstance(row, Mapping):
            continue
        doc_id = str(row.get("doc_id") or row.get("source") or row.get("id") or "document")
        chunks.append(
            Chunk(
                doc_id=doc_id,
                title=str(row.get("title") or doc_id),
                section=str(row.get("section") or ""),
                text=str(row.get("text") or row.get("content") or ""),
                collection=str(row.get("collection") or ""),
                path=str(row.get("path") or row.get("url") or ""),
                score=float(row.get("score") or 0.0),
            )
        )
    return chunks


def _reason(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


async def _call_tool(session: Any, tool: str, args: dict[str, Any]) -> Any:
    """``tools/call`` without the SDK's check of structured output against the tool's schema:
    only the text blocks are read, and an answer cut for its size has no structured part."""
    from mcp import types

    request = types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=args))
    return await session.send_request(types.ClientRequest(request), types.CallToolResult)
