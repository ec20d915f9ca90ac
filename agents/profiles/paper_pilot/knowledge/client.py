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
import importlib
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from agents.mcp_servers.capped_http import capped_http_client
from agents.mcp_servers.capped_stdio import capped_stdio_session
from agents.mcp_servers.references import expand_references
from agents.profiles.paper_pilot.knowledge.index import Chunk
from storage.printable import printable
from storage.secrets import without_values

logger = logging.getLogger(__name__)

CALL_TIMEOUT_S = 30.0
START_TIMEOUT_S = 30.0
IDLE_TIMEOUT_S = 120.0
EMBEDDED = "weaver-knowledge"
HTTP_TRANSPORTS = ("streamable_http", "streamable-http", "http")


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
    """The user's configured server (``mcp.server``, else the first of ``mcp.connections``,
    ``${VAR}`` expanded in every string of it), else the embedded one."""
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
    connection = expand_references(dict(connections[name]))
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
            opening = await self._open_session()
        except Exception as exc:  # noqa: BLE001 (the waiter reports it)
            self._ready.set_exception(exc)
            return
        try:
            async with opening as session:
                self._ready.set_result(None)
                while True:
                    try:
                        item = await asyncio.wait_for(self._queue.get(), IDLE_TIMEOUT_S)
                    except TimeoutError:
                        return
                    if item is None:
                        return
                    if not await self._answer(session, *item):
                        return
        except Exception as exc:  # noqa: BLE001 (any failure of the server task goes to its waiter)
            if not self._ready.done():
                self._ready.set_exception(exc)
            else:
                logger.warning("knowledge session ended", extra={"error": str(exc)})
        finally:
            if not self._ready.done():
                self._ready.set_exception(KnowledgeError("the knowledge session ended"))

    async def _answer(
        self, session: Any, tool: str, args: dict[str, Any], answer: asyncio.Future[Any]
    ) -> bool:
        """Run one queued call and settle its future; False when the server hung and was
        stopped (the next call restarts it)."""
        try:
            result = await asyncio.wait_for(_call_tool(session, tool, args), CALL_TIMEOUT_S)
        except TimeoutError:
            if not answer.done():
                answer.set_exception(KnowledgeError(
                    f"The knowledge server {self.name!r} did not answer {tool} "
                    f"within {CALL_TIMEOUT_S:g} s, so it was stopped; ask again, "
                    "or check the server."
                ))  # fmt: skip
            return False
        except Exception as exc:  # noqa: BLE001 (a call's failure belongs to that call)
            if not answer.done():
                answer.set_exception(exc)
            return True
        if not answer.done():
            answer.set_result(result)
        return True

    async def _open_session(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """A stdio server through the capped transport (see :mod:`agents.mcp_servers.capped_stdio`), any other
        through langchain-mcp-adapters (over streamable HTTP with its answers capped: see
        :mod:`agents.mcp_servers.capped_http`), imported in a thread: that first import takes about a
        second, and the event loop meanwhile carries the turn's routing call."""
        if self.connection.get("transport", "stdio") == "stdio":
            return capped_stdio_session(self.connection)
        adapters = await asyncio.to_thread(importlib.import_module, "langchain_mcp_adapters.client")
        connection = dict(self.connection)
        if connection.get("transport") in HTTP_TRANSPORTS:
            connection.setdefault("httpx_client_factory", capped_http_client)
        client = adapters.MultiServerMCPClient({self.name: connection})
        return cast("contextlib.AbstractAsyncContextManager[Any]", client.session(self.name))

    def _reason(self, exc: BaseException) -> str:
        """Why ``exc`` happened, without the connection's header values (an HTTP library's
        message about a header it refuses quotes the value, a token, say)."""
        headers = self.connection.get("headers") or {}
        return without_values(_reason(exc), map(str, headers.values()))

    @property
    def usable(self) -> bool:
        """False once the session ended (closed, idle, or the server went away)."""
        return self._task is None or not self._task.done()

    def open_soon(self) -> None:
        """Start the session in the background (a turn routes its question meanwhile); a
        failure is reported by the first call, as without it."""
        if self._task is not None:
            return
        self._ready = asyncio.get_running_loop().create_future()
        self._ready.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._task = asyncio.create_task(self._serve(), name=f"mcp:{self.name}")

    async def _start(self) -> None:
        self.open_soon()
        assert self._ready is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), START_TIMEOUT_S)
        except Exception as exc:
            raise KnowledgeError(
                f"The knowledge server {self.name!r} could not be started or reached "
                f"({self._reason(exc)}); check mcp.connections in config.yaml, or remove it to use "
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
                f"The knowledge server {self.name!r} failed on {tool} ({self._reason(exc)})."
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

    async def query(self, query: str, top_k: int = 5, collection: str = "") -> list[Chunk]:
        """The server's best chunks for ``query`` (in ``collection`` only, when one is given)."""
        args: dict[str, Any] = {"query": query, "top_k": top_k}
        if collection:
            args["collection"] = collection
        return chunks_of(await self.call("query_knowledge_hub", args))

    async def collections(self) -> list[dict[str, Any]]:
        """The server's collections (``list_collections``), each with its ``name``."""
        return collections_of(await self.call("list_collections", {}))

    async def document_summary(self, doc_id: str) -> dict[str, Any] | None:
        """A document's summary (``get_document_summary``), or ``None`` when the server has no
        such document."""
        answer = await self.call("get_document_summary", {"doc_id": doc_id})
        if isinstance(answer, str):
            return {"doc_id": doc_id, "summary": answer} if answer.strip() else None
        if not isinstance(answer, Mapping) or answer.get("error"):
            return None
        return {"doc_id": doc_id, **answer}

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


def collections_of(answer: Any) -> list[dict[str, Any]]:
    """Collections from a ``list_collections`` answer: ``{"collections": [...]}`` or a list, of
    rows with a ``name`` (counts kept when given) or of plain names."""
    rows = answer.get("collections") if isinstance(answer, Mapping) else answer
    found: list[dict[str, Any]] = []
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, Mapping) and str(row.get("name") or "").strip():
            found.append({**row, "name": str(row["name"]).strip()})
        elif isinstance(row, str) and row.strip():
            found.append({"name": row.strip()})
    return found


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
