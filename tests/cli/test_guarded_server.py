"""The guarded server's pieces (hosts, origins, tokens), and what an app it starts gets: the
command its token maps to, and only the environment variables the app reads."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future

import pytest
import websockets
from websockets.typing import Origin

from weaver_tui.core.guarded_server import GuardedServer, allowed_hosts
from weaver_tui.core.served_app import MAX_COLUMNS, ScopedAppService, app_environment

START_TIMEOUT_S = 60

# A stand-in app that speaks textual-serve's protocol: the prelude line, then one data packet
# holding its environment, its process id and the argument it was started with.
REPORTER = """
import json, os, sys
report = {"argv": sys.argv[1:], "env": dict(os.environ), "pid": os.getpid()}
payload = json.dumps(report).encode()
sys.stdout.buffer.write(b"__GANGLION__\\n" + b"D" + len(payload).to_bytes(4, "big") + payload)
sys.stdout.flush()
if sys.argv[1:] == ["stuck"]:  # an app that never reads its input, so never hears "quit"
    import time
    time.sleep(3600)
"""


def test_the_allowed_hosts_are_the_served_address_and_localhost_on_loopback() -> None:
    assert allowed_hosts("127.0.0.1", 8000) == {"127.0.0.1:8000", "localhost:8000"}
    assert allowed_hosts("::1", 8000) == {"[::1]:8000", "localhost:8000"}
    assert allowed_hosts("192.168.1.20", 8000) == {"192.168.1.20:8000"}
    assert allowed_hosts("Box.LAN", 80) == {"box.lan:80", "box.lan"}


def test_the_origin_must_be_the_served_page_when_one_is_sent() -> None:
    server = GuardedServer("true", host="127.0.0.1", port=8000)
    assert server.origin_allowed("http://127.0.0.1:8000")
    assert server.origin_allowed("http://localhost:8000")
    assert server.origin_allowed(None)  # no browser page: browsers always send an Origin
    for foreign in ("http://evil.example", "http://127.0.0.1:8001", "https://127.0.0.1:8000"):
        assert not server.origin_allowed(foreign)
    assert not server.origin_allowed("null")
    assert not server.host_allowed("evil.example:8000")
    assert not server.host_allowed(None)


def test_each_server_has_its_own_random_token_and_only_it_opens_the_app() -> None:
    first = GuardedServer("the app", host="127.0.0.1", port=8000)
    second = GuardedServer("the app", host="127.0.0.1", port=8000)
    assert first.token != second.token
    assert len(first.token) >= 43
    assert first.command_for(first.token) == "the app"
    for wrong in (second.token, "", first.token[:-1], first.token + "x", "é" * 43):
        assert first.command_for(wrong) is None
    assert first.url_for(first.token) == f"http://127.0.0.1:8000/?token={first.token}"


def test_a_wildcard_address_is_not_served() -> None:
    with pytest.raises(ValueError, match="not a wildcard"):
        GuardedServer("true", host="0.0.0.0", port=8000)


def test_the_app_environment_keeps_what_the_app_reads_and_nothing_else() -> None:
    environ = {
        "PATH": "/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "XDG_CONFIG_HOME": "/home/u/.config",
        "WEAVER_MODEL": "m",
        "OPENAI_API_KEY": "sk-test",
        "DEEPSEEK_API_KEY": "sk-test2",
        "OPENAI_BASE_URL": "http://localhost:1",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "GITHUB_TOKEN": "ghp",
    }
    kept = app_environment(environ)
    assert set(kept) == set(environ) - {"AWS_SECRET_ACCESS_KEY", "SSH_AUTH_SOCK", "GITHUB_TOKEN"}


class SeatServer(GuardedServer):
    """A server with a token per seat, each starting the app with its own argument."""

    def __init__(self, seats: dict[str, str], port: int) -> None:
        self.printed = io.StringIO()
        super().__init__("unused", host="127.0.0.1", port=port, out=self.printed)
        self.seats = seats
        self.stop_serving: Callable[[], object] = lambda: None
        """Ask the server to stop (as the fixture's teardown does)."""

    def command_for(self, token: str) -> str | None:
        seat = self.seats.get(token)
        return None if seat is None else shlex.join([sys.executable, "-c", REPORTER, seat])


@pytest.fixture
def seat_server(unused_tcp_port: int) -> Iterator[SeatServer]:
    seats = {"alex-token": "alex", "sam-token": "sam", "stuck-token": "stuck"}
    server = SeatServer(seats, unused_tcp_port)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    stop = asyncio.Event()
    served: Future[None] = asyncio.run_coroutine_threadsafe(server.serve_until(stop), loop)
    server.stop_serving = lambda: loop.call_soon_threadsafe(stop.set)
    asyncio.run_coroutine_threadsafe(_announced(server), loop).result(timeout=START_TIMEOUT_S)
    yield server
    loop.call_soon_threadsafe(stop.set)
    served.result(timeout=START_TIMEOUT_S)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=START_TIMEOUT_S)
    loop.close()


async def _announced(server: SeatServer) -> None:
    while not server.printed.getvalue():  # noqa: ASYNC110 (a print is not signalled)
        await asyncio.sleep(0.01)


async def _first_report(server: SeatServer, token: str) -> dict[str, object]:
    url = f"ws://{server.served_address}/ws/{token}?width=80&height=24"
    origin = Origin(f"http://{server.served_address}")
    async with (
        asyncio.timeout(START_TIMEOUT_S),
        websockets.connect(url, origin=origin, proxy=None) as ws,
    ):
        message = await ws.recv()
    assert isinstance(message, bytes)
    report: dict[str, object] = json.loads(message)
    return report


def test_each_token_starts_its_own_command(seat_server: SeatServer) -> None:
    assert asyncio.run(_first_report(seat_server, "alex-token"))["argv"] == ["alex"]
    assert asyncio.run(_first_report(seat_server, "sam-token"))["argv"] == ["sam"]


def test_an_app_gets_the_variables_it_reads_and_not_the_users_other_secrets(
    seat_server: SeatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-for-the-app")
    monkeypatch.setenv("WEAVER_MODEL", "some-model")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/somewhere")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-for-the-app")
    monkeypatch.setenv("SSH_AUTH_SOCK", "/tmp/not-for-the-app")
    env = asyncio.run(_first_report(seat_server, "alex-token"))["env"]
    assert isinstance(env, dict)
    assert env["OPENAI_API_KEY"] == "sk-for-the-app"
    assert env["WEAVER_MODEL"] == "some-model"
    assert env["XDG_CONFIG_HOME"] == "/somewhere"
    assert "AWS_SECRET_ACCESS_KEY" not in env
    assert "SSH_AUTH_SOCK" not in env
    # What textual-serve sets for its web driver still reaches the app.
    assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    assert (env["COLUMNS"], env["ROWS"]) == ("80", "24")


def test_an_app_that_does_not_quit_is_stopped_when_its_session_ends(
    seat_server: SeatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ScopedAppService, "quit_timeout_s", 0.5)
    pid = asyncio.run(_first_report(seat_server, "stuck-token"))["pid"]
    assert isinstance(pid, int)

    def running() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + START_TIMEOUT_S
    while running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running()


def test_stopping_the_server_tells_a_connected_page_and_ends_its_session(
    seat_server: SeatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page is closed as "going away" with the reason, by the server, while the page
    still holds the connection open: the stop does not wait for the page to leave."""
    monkeypatch.setattr(ScopedAppService, "quit_timeout_s", 0.5)

    async def hold_open_while_stopping() -> tuple[int | None, str | None]:
        url = f"ws://{seat_server.served_address}/ws/stuck-token?width=80&height=24"
        origin = Origin(f"http://{seat_server.served_address}")
        async with (
            asyncio.timeout(START_TIMEOUT_S),
            websockets.connect(url, origin=origin, proxy=None) as ws,
        ):
            await ws.recv()  # the app runs
            seat_server.stop_serving()
            async for _ in ws:  # until the server closes it (an abnormal close raises)
                pass
            return ws.close_code, ws.close_reason

    code, reason = asyncio.run(hold_open_while_stopping())
    assert code == 1001  # going away
    assert reason == "The server stopped."


def test_a_page_asking_for_a_huge_or_odd_terminal_gets_a_bounded_one(
    seat_server: SeatServer,
) -> None:
    async def first_environment() -> object:
        url = f"ws://{seat_server.served_address}/ws/alex-token?width=1000000000&height=-7"
        origin = Origin(f"http://{seat_server.served_address}")
        async with (
            asyncio.timeout(START_TIMEOUT_S),
            websockets.connect(url, origin=origin, proxy=None) as ws,
        ):
            message = await ws.recv()
        assert isinstance(message, bytes)
        return json.loads(message)["env"]

    env = asyncio.run(first_environment())
    assert isinstance(env, dict)
    assert (env["COLUMNS"], env["ROWS"]) == (str(MAX_COLUMNS), "1")


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "{}",
        "[]",
        '["stdin"]',
        '["stdin", 7]',
        '["resize", "big"]',
        '["shell", "ls"]',
        '["stdin", "\\ud800"]',
    ],
)
def test_a_page_sending_a_message_pages_never_send_is_closed_with_a_reason(
    seat_server: SeatServer, monkeypatch: pytest.MonkeyPatch, frame: str
) -> None:
    """A lone surrogate is valid JSON but no text the app can read; the others are not
    messages of textual-serve's page at all."""
    monkeypatch.setattr(ScopedAppService, "quit_timeout_s", 0.5)

    async def send_and_wait() -> tuple[int | None, str | None]:
        url = f"ws://{seat_server.served_address}/ws/stuck-token?width=80&height=24"
        origin = Origin(f"http://{seat_server.served_address}")
        async with (
            asyncio.timeout(START_TIMEOUT_S),
            websockets.connect(url, origin=origin, proxy=None) as ws,
        ):
            await ws.recv()
            await ws.send(frame)
            await ws.wait_closed()
            return ws.close_code, ws.close_reason

    code, reason = asyncio.run(send_and_wait())
    assert code == 1003
    assert reason
    assert asyncio.run(_first_report(seat_server, "alex-token"))["argv"] == ["alex"]
