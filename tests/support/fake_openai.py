"""A local OpenAI-compatible server for tests and benchmarks: real HTTP, real SSE, scripted.

It runs ``ThreadingHTTPServer`` on 127.0.0.1 (a free port) in its own thread, so both the sync
and the async ``openai`` clients can talk to it from any event loop (a server in the test's own
loop deadlocks a sync ``.invoke``). It speaks ``POST /v1/chat/completions`` (SSE when
``stream`` is true, JSON otherwise) and ``GET /v1/models``, records every request, and answers
from a queue of ``Reply`` objects (see ``tests.support.openai_script``)::

    def test_something(fake_openai):
        fake_openai.script(Reply("Hello there"), Reply.rate_limited(retry_after=3))
        llm = ChatOpenAI(base_url=fake_openai.base_url, api_key="k", ...)
        ...
        assert fake_openai.requests[0].body["messages"][-1]["content"] == "hi"

Run it alone for a benchmark or a manual session (it prints the base URL)::

    python -m tests.support.fake_openai --tokens 20000
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import re
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.support.openai_script import (
    ChunkWriter,
    Reply,
    ReplySource,
    ToolCall,
    echo_reply,
    estimate_prompt_tokens,
    markdown_tokens,
)

__all__ = ["FakeOpenAI", "RecordedRequest", "Reply", "ToolCall", "fake_openai", "markdown_tokens"]

logger = logging.getLogger(__name__)

_FLUSH_BYTES = 32 * 1024
LOCKSTEP_BOUND_S = 60.0
"""How long a ``lockstep`` reply waits for the test's next step (against a hang)."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it (``body`` is the parsed JSON, or None)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    peer: tuple[str, int] | None = None
    """The client's address and port: requests with the same one came over one connection."""


@dataclass(frozen=True)
class _Signals:
    """The step and release signals of one test on a server (new ones at each reset)."""

    steps: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    releases: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))


class FakeOpenAI:
    """The server. Start with ``start()`` (or use it as a context manager); stop with ``stop()``.

    ``default`` answers when the queue is empty (``echo_reply`` unless given; ``None`` makes an
    unscripted request a 500 naming the problem). ``token_delay`` is the pause between deltas for
    replies that set none: 0 streams as fast as the socket takes it.
    """

    def __init__(
        self,
        *,
        models: list[str] | None = None,
        default: Callable[[dict[str, Any]], Reply] | None = echo_reply,
        token_delay: float = 0.0,
    ) -> None:
        self.models = models or ["fake-model", "fake-model-large"]
        self.model_info: dict[str, dict[str, Any]] = {}
        """Extra fields of a model in the ``/models`` answer (vLLM's ``max_model_len`` ...)."""
        self.default = default
        self.token_delay = token_delay
        self.needs_reasoning_back = False
        """Answer 400 "Missing `reasoning_content` field", as DeepSeek's thinking mode does, to
        a request with an assistant message that has tool calls but no ``reasoning_content``
        (no scripted reply is used up)."""
        self.reasoning_field = "reasoning_content"
        """The field ``needs_reasoning_back`` asks for (and names in its 400)."""
        self.tool_call_id_pattern: str | None = None
        """Answer 400 in Mistral's words to a request with a tool-call id (an assistant call's
        or a tool message's) this regular expression does not match whole."""
        self.needs_call_extras = False
        """Answer 400 in Gemini's words to an assistant tool call sent without its
        ``extra_content`` (the thought signature the server attached to it)."""
        self.needs_tool_names = False
        """Answer 400 to a tool message without ``name``, as Mistral does."""
        self.requests: list[RecordedRequest] = []
        self._signals = _Signals()
        self._queue: deque[ReplySource] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting and inspection -------------------------------------------------------
    def script(self, *replies: ReplySource | str) -> FakeOpenAI:
        """Queue replies (a plain string is ``Reply(content=string)``), answered in order."""
        with self._lock:
            for reply in replies:
                self._queue.append(Reply(content=reply) if isinstance(reply, str) else reply)
        return self

    def reset(self) -> None:
        """Forget the queued replies and the recorded requests: a server shared by several
        tests starts each of them as new."""
        with self._lock:
            self._queue.clear()
            # New signals: a reply an earlier test left held (its client gone) waits on the
            # ones its request took as it arrived, until the server stops, and never takes this
            # test's release or step.
            self._signals = _Signals()
        self.requests.clear()

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        return len(self._queue)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.split("?", 1)[0].endswith("/chat/completions")]

    @property
    def chat_bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of the chat-completions requests, oldest first."""
        bodies = [r.body for r in self.chat_requests]
        if any(body is None for body in bodies):
            raise AssertionError("a chat-completions request to the fake server was not JSON")
        return [body for body in bodies if body is not None]

    @property
    def last_body(self) -> dict[str, Any]:
        """The JSON body of the latest chat-completions request."""
        bodies = self.chat_requests
        if not bodies or bodies[-1].body is None:
            raise AssertionError("the fake OpenAI server received no chat-completions request")
        return bodies[-1].body

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the fake OpenAI server is not running")
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def next_reply(self, body: dict[str, Any]) -> Reply | None:
        with self._lock:
            source = self._queue.popleft() if self._queue else self.default
        if source is None:
            return None
        return source if isinstance(source, Reply) else source(body)

    def refusal_of(self, body: dict[str, Any]) -> str | None:
        """The 400 message for a request this server's rules refuse, if any."""
        field_name = self.reasoning_field
        missing = _missing_reasoning(body, field_name) if self.needs_reasoning_back else None
        if missing is not None:
            return (
                f"Missing `{field_name}` field in the assistant message at message index "
                f"{missing}. For more information, please refer to the thinking mode guide."
            )
        for message in body.get("messages") or []:
            calls = message.get("tool_calls") or ()
            if self.needs_call_extras and any("extra_content" not in c for c in calls):
                return "Function call is missing a thought_signature in functionCall parts."
            ids = [call.get("id") for call in calls]
            if message.get("role") == "tool":
                ids.append(message.get("tool_call_id"))
                if self.needs_tool_names and not message.get("name"):
                    return "Tool message is missing the required field 'name'."
            for call_id in ids:
                if self.tool_call_id_pattern is not None and not re.fullmatch(
                    self.tool_call_id_pattern, str(call_id)
                ):
                    return (
                        f"Tool call id was {call_id} but must be a-z, A-Z, 0-9, with a length of 9."
                    )
                if not isinstance(call_id, str) or not call_id:
                    return "Invalid tool call: every tool call and tool message needs an id."
        return None

    # -- lifecycle ----------------------------------------------------------------------
    def start(self) -> FakeOpenAI:
        handler = type("FakeOpenAIHandler", (_Handler,), {"fake": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            # How often the loop looks for stop(): every test stops its server once, and waits.
            kwargs={"poll_interval": 0.01},
            name="fake-openai",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and cut every open connection, so no handler thread outlives the test."""
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def step(self) -> None:
        """Let a ``lockstep`` reply send its next event (see ``Reply.lockstep``)."""
        self._signals.steps.release()

    def release(self) -> None:
        """Let a reply held at one of its ``holds`` go on (see ``Reply.holds``)."""
        self._signals.releases.release()

    def signals(self) -> _Signals:
        """The step and release signals of the test now running: a request takes them as it
        arrives, so one left held by an earlier test never takes a later test's."""
        with self._lock:
            return self._signals

    def wait_for(self, signal: threading.Semaphore) -> bool:
        """Wait for one of ``signal`` (a :meth:`step` or :meth:`release`, up to
        ``LOCKSTEP_BOUND_S``); False if it never came or the server is stopping."""
        return self._acquire(signal)

    def _acquire(self, signal: threading.Semaphore) -> bool:
        deadline = time.monotonic() + LOCKSTEP_BOUND_S
        while not self._stopping.is_set() and time.monotonic() < deadline:
            if signal.acquire(timeout=0.05):
                return True
        return False

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True if the server is stopping (so delays end with it)."""
        return self._stopping.wait(seconds) if seconds > 0 else self._stopping.is_set()

    def track(self, conn: socket.socket, alive: bool) -> None:
        with self._lock:
            if alive:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up or resets is normal here (timeouts, cancelled streams)."""
        logger.debug(
            "fake-openai: connection from %s ended abruptly", client_address, exc_info=True
        )


class _Handler(BaseHTTPRequestHandler):
    """Speaks just enough HTTP/1.1 (keep-alive, chunked SSE) for the openai SDK."""

    protocol_version = "HTTP/1.1"
    timeout = 30  # an idle keep-alive connection closes by itself
    fake: FakeOpenAI
    signals: _Signals

    def setup(self) -> None:
        super().setup()
        self.fake.track(self.connection, True)

    def finish(self) -> None:
        self.fake.track(self.connection, False)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("fake-openai: " + format, *args)

    def _record(self, body: dict[str, Any] | None) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        peer = (str(self.client_address[0]), int(self.client_address[1]))
        self.fake.requests.append(RecordedRequest(self.command, self.path, headers, body, peer))

    def route(self) -> str:
        """The request's path without its query (what the server routes on)."""
        return self.path.split("?", 1)[0].rstrip("/")

    def do_GET(self) -> None:
        self._record(None)
        if self.route().endswith("/models"):
            data = [
                {"id": m, "object": "model", "owned_by": "fake", **self.fake.model_info.get(m, {})}
                for m in self.fake.models
            ]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        self.signals = self.fake.signals()  # before the request is recorded as arrived
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._record(None)
            self._send_json(400, {"error": {"message": "request body is not JSON"}})
            return
        self._record(body)
        if not self.route().endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})
            return
        refusal = self.fake.refusal_of(body)
        if refusal is not None:
            self._send_json(400, {"error": {"message": refusal, "type": "invalid_request_error"}})
            return
        reply = self.fake.next_reply(body)
        if reply is None:
            message = "fake_openai: no scripted reply left for this request"
            self._send_json(500, {"error": {"message": message, "type": "server_error"}})
            return
        if self.fake.wait(reply.first_byte_delay):
            return
        if reply.status >= 400 and reply.error_text is not None:
            self._send_error_text(reply)
            return
        if reply.status >= 400:
            self._send_json(reply.status, reply.error_body(), reply.headers)
            return
        if reply.raw_body is not None:
            self._send_raw(reply.raw_body, reply.content_type)
            return
        writer = ChunkWriter(str(body.get("model") or "fake-model"))
        prompt_tokens = estimate_prompt_tokens(body)
        if not body.get("stream"):
            self._send_json(200, writer.completion_json(reply, prompt_tokens), reply.headers)
            return
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        with contextlib.suppress(OSError):
            self._stream(reply, writer.reply_events(reply, prompt_tokens, include_usage))

    def _send_error_text(self, reply: Reply) -> None:
        """An error answer whose body is not JSON (a proxy's HTML page, plain text, nothing)."""
        data = reply.error_text or b""
        with contextlib.suppress(OSError):
            self.send_response(reply.status)
            self.send_header("content-type", reply.content_type)
            self.send_header("content-length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        with contextlib.suppress(OSError):
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    def _send_raw(self, data: bytes, content_type: str) -> None:
        with contextlib.suppress(OSError):
            self.send_response(200)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    def _stream(self, reply: Reply, events: Iterator[bytes]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        delay = reply.token_delay if reply.token_delay is not None else self.fake.token_delay
        buffer: list[bytes] = []
        size = 0
        started = time.monotonic()
        held = reply.held_events()
        for sent, event in enumerate(events):
            if sent in held and not self._hold(buffer):
                return
            if sent == reply.reset_after:
                self._flush(buffer)
                self._reset()
                return
            if sent == reply.malformed_after:
                event = b'data: {"id": "chatcmpl-broken", "choices": [{"delta": {"content": "x\n\n'
            if sent == reply.stream_error_after:
                error = {
                    "error": {"message": "The stream failed upstream.", "type": "server_error"}
                }
                event = b"data: " + json.dumps(error).encode() + b"\n\n"
            if reply.lockstep and sent and not self.fake.wait_for(self.signals.steps):
                return
            buffer.append(event)
            size += len(event)
            if reply.lockstep:
                self._flush(buffer)
            elif delay > 0:
                # Paced against the start time, not per event, so 5,000 tokens/s stays exact.
                self._flush(buffer)
                ahead = started + (sent + 1) * delay - time.monotonic()
                if self.fake.wait(ahead):
                    return
            elif size >= _FLUSH_BYTES:
                self._flush(buffer)
                size = 0
        self._flush(buffer)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _hold(self, buffer: list[bytes]) -> bool:
        """Send what is buffered and wait for the test's release; False if it never came."""
        self._flush(buffer)
        return self.fake.wait_for(self.signals.releases)

    def _flush(self, buffer: list[bytes]) -> None:
        if not buffer:
            return
        data = b"".join(buffer)
        buffer.clear()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def _reset(self) -> None:
        """Abort the connection with a TCP RST, as a crashed upstream or proxy does."""
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True


def _missing_reasoning(body: dict[str, Any], field_name: str) -> int | None:
    """The index of the first assistant message with tool calls and no reasoning, if any."""
    for index, message in enumerate(body.get("messages") or []):
        has_calls = message.get("role") == "assistant" and message.get("tool_calls")
        if has_calls and field_name not in message:
            return index
    return None


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running fake OpenAI server for one test; stopped (connections cut) afterwards."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted: every request gets the same long Markdown reply (or an echo)."""
    parser = argparse.ArgumentParser(description="A local fake OpenAI-compatible server.")
    parser.add_argument("--tokens", type=int, default=0, help="reply with N Markdown tokens")
    parser.add_argument("--token-delay", type=float, default=0.0, help="seconds between deltas")
    args = parser.parse_args(argv)
    tokens = markdown_tokens(args.tokens) if args.tokens else None
    default = (lambda _body: Reply.from_tokens(tokens)) if tokens else echo_reply
    server = FakeOpenAI(default=default, token_delay=args.token_delay).start()
    print(server.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
