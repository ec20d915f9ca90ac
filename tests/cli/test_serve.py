"""``weaver-tui serve``: the page over HTTP, one app session over a websocket, a taken port."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets

from tests.cli.conftest import isolated_env

START_TIMEOUT_S = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def server(tmp_path: Path):
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=isolated_env(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail(f"serve did not answer: {process.communicate()[1][-2000:]!r}")
    yield port
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_the_page_names_its_websocket_and_a_session_runs_the_app(server: int):
    page = httpx.get(f"http://127.0.0.1:{server}/", timeout=5).text
    assert f"ws://127.0.0.1:{server}/ws" in page

    async def read_until(ws: websockets.ClientConnection, marker: bytes) -> bytes:
        received = b""
        deadline = time.monotonic() + START_TIMEOUT_S
        while marker not in received and time.monotonic() < deadline:
            message = await asyncio.wait_for(ws.recv(), timeout=START_TIMEOUT_S)
            received += message if isinstance(message, bytes) else message.encode()
        return received

    async def session() -> tuple[bytes, bytes]:
        url = f"ws://127.0.0.1:{server}/ws?width=100&height=30"
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(json.dumps(["resize", {"width": 100, "height": 30}]))
            # The header names the model once the chat screen is in (after the launch frame).
            first = await read_until(ws, b"offline")
            await ws.send(json.dumps(["stdin", "zebra"]))
            typed = await read_until(ws, b"zebra")
        return first, typed

    first, typed = asyncio.run(session())
    assert b"Write a message" in first  # the app's frames reach the browser side
    assert b"zebra" in typed  # and keys typed in the browser reach the composer


def test_a_taken_port_is_one_clear_sentence(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "weaver_tui", "serve", "--port", str(port)],
            cwd=tmp_path,
            env=isolated_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"weaver-tui: port {port} on 127.0.0.1 is already in use: stop what uses it, or pick "
        f"another with --port (for example --port {port + 1})"
    )


def test_serve_without_its_extra_is_one_sentence_saying_how_to_install_it(tmp_path: Path):
    """``textual-serve`` is the optional ``serve`` extra: without it, ``serve`` says how to
    install it (here it is hidden from the child by a ``None`` entry in ``sys.modules``)."""
    code = (
        "import sys; sys.modules['textual_serve'] = None\n"
        "from weaver_tui.cli import main\n"
        f"sys.exit(main(['serve', '--port', '{_free_port()}']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=isolated_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "weaver-tui: serving to a browser needs the optional serve extra: install it with "
        "pip install 'weaver-tui[serve]' (in a clone: .venv/bin/pip install -e '.[serve]')"
    )
