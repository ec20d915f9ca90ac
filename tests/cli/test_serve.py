"""``weaver-tui serve``: one printed link with a per-run token; the page and the websocket
answer only its holder, at the served address, from the served page; a session runs the app."""

from __future__ import annotations

import asyncio
import importlib
import json
import queue
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from tests.cli.conftest import isolated_env
from tests.support.in_process_cli import run_in_process

START_TIMEOUT_S = 60
Weaver = Callable[..., subprocess.CompletedProcess[str]]
URL_LINE = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{43})")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    process: subprocess.Popen[str]
    port: int
    url: str
    token: str
    stdout: queue.Queue[str]
    readers: list[threading.Thread]
    stderr: list[str]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def websocket_url(self, token: str | None = None) -> str:
        return f"ws://{self.address}/ws/{token or self.token}?width=100&height=30"

    def stop(self) -> tuple[str, str]:
        """Terminate; the rest of stdout (after the link) and all of stderr."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for reader in self.readers:
            reader.join(timeout=30)
        rest = []
        while not self.stdout.empty():
            rest.append(self.stdout.get())
        return "".join(rest), "".join(self.stderr)


def _drain(stream: IO[str], into: Callable[[str], object]) -> threading.Thread:
    def read() -> None:
        for line in stream:
            into(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


def _start(tmp_path: Path) -> Served:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=isolated_env(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    lines: queue.Queue[str] = queue.Queue()
    stderr: list[str] = []
    readers = [_drain(process.stdout, lines.put), _drain(process.stderr, stderr.append)]
    try:
        first = lines.get(timeout=START_TIMEOUT_S)
    except queue.Empty:
        process.kill()
        pytest.fail(f"serve printed no link: {''.join(stderr)[-2000:]!r}")
    match = URL_LINE.fullmatch(first.rstrip("\n"))
    if not match or int(match[1]) != port:
        process.kill()
        pytest.fail(f"the first line is not the link to port {port}: {first!r}")
    return Served(process, port, first.rstrip("\n"), match[2], lines, readers, stderr)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module's tests that only ask it things (pages, refusals): none of
    them changes what it serves. A test that stops its server or runs a session starts its
    own."""
    server = _start(tmp_path_factory.mktemp("served"))
    yield server
    server.stop()


def test_a_new_run_prints_one_line_a_link_with_a_new_token_that_never_reaches_a_log(
    tmp_path: Path, served: Served
) -> None:
    """A server of its own beside the module's: its one line on stdout is a link that works,
    with a token of its own (the other run's token is refused here); refused requests are
    logged without what they carried."""
    server = _start(tmp_path)
    try:
        assert server.token != served.token
        assert httpx.get(server.url, timeout=10).status_code == 200  # the printed link works
        other_run = f"http://{server.address}/?token={served.token}"
        assert httpx.get(other_run, timeout=10).status_code == 403
        # Refused requests are logged; what they carried must not be.
        httpx.get(f"http://{server.address}/?token={server.token[:-1]}", timeout=10)
        httpx.get(server.url, headers={"Host": f"evil.example:{server.port}"}, timeout=10)
    finally:
        rest, err = server.stop()
    assert rest == ""  # the link was the only line on stdout
    assert "refused" in err  # the refusals were logged...
    assert server.token not in err  # ...without the token
    assert server.token[:-1] not in err
    assert served.token not in err
    for log in (tmp_path / "data").rglob("*.log"):
        assert server.token not in log.read_text()


def test_the_page_needs_the_token(served: Served) -> None:
    assert httpx.get(f"http://{served.address}/", timeout=10).status_code == 403
    wrong = httpx.get(f"http://{served.address}/?token=guess", timeout=10)
    assert wrong.status_code == 403
    assert "link" in wrong.text
    assert "Traceback" not in wrong.text
    assert httpx.get(served.url, timeout=10).status_code == 200


def test_the_page_loads_nothing_from_another_host(served: Served) -> None:
    page = httpx.get(served.url, timeout=10)
    hosts = set(re.findall(r"(?:https?|wss?)://([^/\"'\s)]+)", page.text))
    assert hosts == {served.address}, hosts  # only the websocket, at the served address
    assert "googleapis" not in page.text
    assert page.headers["Referrer-Policy"] == "no-referrer"  # the link's token stays here
    sources = re.findall(r"(?:src|href)=\"([^\"]+)\"", page.text)
    sources += re.findall(r"url\(\"([^\"]+)\"\)", page.text)
    assert sources  # the script, the stylesheet and the fonts...
    for source in sources:  # ...come from this server, without the token
        assert source.startswith("/static/"), source
        assert httpx.get(f"http://{served.address}{source}", timeout=10).status_code == 200


def test_the_pages_websocket_carries_the_token_in_its_path(served: Served) -> None:
    page = httpx.get(served.url, timeout=10).text
    websocket_url = re.search(r'data-session-websocket-url="([^"]+)"', page)
    assert websocket_url
    parts = urlsplit(websocket_url[1])
    assert (parts.scheme, parts.netloc, parts.path) == ("ws", served.address, f"/ws/{served.token}")
    assert parse_qs(parts.query) == {}  # the page script appends ?width=...&height=...


def test_another_host_name_is_refused_and_localhost_is_not(served: Served) -> None:
    evil = httpx.get(served.url, headers={"Host": f"evil.example:{served.port}"}, timeout=10)
    assert evil.status_code == 403
    static = f"http://{served.address}/static/js/textual.js"
    assert httpx.get(static, headers={"Host": "evil.example"}, timeout=10).status_code == 403
    local = httpx.get(served.url, headers={"Host": f"localhost:{served.port}"}, timeout=10)
    assert local.status_code == 200


async def _refusal(url: str, **options: Any) -> int:
    try:
        async with websockets.connect(url, proxy=None, open_timeout=30, **options):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


def test_the_websocket_refuses_a_wrong_token(served: Served) -> None:
    assert asyncio.run(_refusal(served.websocket_url("guess"))) == 403
    assert asyncio.run(_refusal(served.websocket_url(served.token + "x"))) == 403


def test_the_websocket_refuses_another_pages_origin(served: Served) -> None:
    for origin in ("http://evil.example", f"http://evil.example:{served.port}", "null"):
        assert asyncio.run(_refusal(served.websocket_url(), origin=Origin(origin))) == 403


def test_the_websocket_refuses_another_host_name(served: Served) -> None:
    rebound = f"ws://evil.example:{served.port}/ws/{served.token}"
    status = asyncio.run(_refusal(rebound, host="127.0.0.1", port=served.port))
    assert status == 403


async def _read_until(ws: websockets.ClientConnection, marker: bytes) -> bytes:
    received = b""
    async with asyncio.timeout(START_TIMEOUT_S):
        while marker not in received:
            message = await ws.recv()
            received += message if isinstance(message, bytes) else message.encode()
    return received


def test_the_token_holders_page_runs_the_app(tmp_path: Path) -> None:
    served = _start(tmp_path)

    async def session() -> tuple[bytes, bytes]:
        origin = Origin(f"http://{served.address}")
        async with websockets.connect(
            served.websocket_url(), origin=origin, proxy=None, max_size=None
        ) as ws:
            await ws.send(json.dumps(["resize", {"width": 100, "height": 30}]))
            # The header names the model once the chat screen is in (after the launch frame).
            first = await _read_until(ws, b"offline")
            await ws.send(json.dumps(["stdin", "zebra"]))
            typed = await _read_until(ws, b"zebra")
        return first, typed

    try:
        first, typed = asyncio.run(session())
    finally:
        rest, _ = served.stop()
    assert b"Write a message" in first  # the app's frames reach the browser side
    assert b"zebra" in typed  # and keys typed in the browser reach the composer
    assert rest == ""  # still one line on stdout: the link


@pytest.fixture
def refused_serve(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Weaver:
    """``refused_serve(*args)`` runs ``weaver-tui serve *args`` in this process, for the
    refusals that come before anything is served: a call that got past its check would fail
    the test at once instead of serving forever."""
    from weaver_tui.core import guarded_server

    def never_serve(_server: object) -> None:
        pytest.fail("serve started serving instead of refusing")

    monkeypatch.setattr(guarded_server.GuardedServer, "serve", never_serve)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_in_process(
            ("serve", *args),
            env=isolated_env(tmp_path),
            cwd=tmp_path,
            capfd=capfd,
            monkeypatch=monkeypatch,
        )

    return run


def test_a_taken_port_is_one_clear_sentence(refused_serve: Weaver) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = refused_serve("--port", str(port))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"weaver-tui: port {port} on 127.0.0.1 is already in use: stop what uses it, or pick "
        f"another with --port (for example --port {port + 1})"
    )


def test_a_wildcard_address_is_one_clear_sentence(refused_serve: Weaver) -> None:
    result = refused_serve("--host", "0.0.0.0", "--port", str(_free_port()))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "--host" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_without_its_extra_is_one_sentence_saying_how_to_install_it(
    refused_serve: Weaver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``textual-serve`` is the optional ``serve`` extra: without it, ``serve`` says how to
    install it (here, for this test only, it is hidden by ``None`` entries in ``sys.modules``
    and the module that imports it is imported afresh)."""
    for name in [n for n in sys.modules if n.split(".")[0] == "textual_serve"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "weaver_tui.core.guarded_server")
    with pytest.raises(ImportError):  # so the call below cannot serve either
        importlib.import_module("weaver_tui.core.guarded_server")
    result = refused_serve("--port", str(_free_port()))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "weaver-tui: serving to a browser needs the optional serve extra: install it with "
        "pip install 'weaver-tui[serve]' (in a clone: .venv/bin/pip install -e '.[serve]')"
    )
