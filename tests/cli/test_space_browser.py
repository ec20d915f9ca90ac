"""A seat in a real browser: Debian's Chromium, headless, driven over the DevTools protocol,
opens Alex's and Sam's links of a real ``space open`` host. Typed into Alex's page, a message
reaches the host (stored as Alex's, answered), and shows at Alex's seat; Sam's page never
receives it. What each page shows is read from the websocket frames the page itself received
(the terminal draws on a canvas). Skipped, in one line, where no Chromium is installed."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.cli.test_space import WAIT_S, Space, _open

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium to drive (Debian: apt-get install chromium)"
)

_ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")
MARKER = "budget-question-7Q"


class DevTools:
    """A minimal DevTools-protocol client: commands by id, events kept per session."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.frames: dict[str, bytes] = {}
        """Per page session: every websocket frame the page received, escapes taken out."""
        self.arrived = asyncio.Event()
        """Set whenever a page received a frame."""
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if "id" in message:
                self.waiting.pop(message["id"]).set_result(message)
            elif message.get("method") == "Network.webSocketFrameReceived":
                response = message["params"]["response"]
                data = response["payloadData"]
                body = base64.b64decode(data) if response.get("opcode") == 2 else data.encode()
                session = message.get("sessionId", "")
                self.frames[session] = self.frames.get(session, b"") + _ESCAPES.sub(b"", body)
                self.arrived.set()

    async def send(self, method: str, session: str | None = None, **params: Any) -> Any:
        command_id = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[command_id] = future
        message: dict[str, Any] = {"id": command_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        await self.ws.send(json.dumps(message))
        answer = await asyncio.wait_for(future, WAIT_S)
        assert "error" not in answer, answer
        return answer.get("result", {})

    async def page(self, url: str) -> str:
        """A new tab on ``url``, its network watched from before it loads; its session."""
        target = await self.send("Target.createTarget", url="about:blank")
        attached = await self.send(
            "Target.attachToTarget", targetId=target["targetId"], flatten=True
        )
        session = str(attached["sessionId"])
        self.frames[session] = b""
        await self.send("Network.enable", session)
        await self.send("Page.enable", session)
        await self.send("Page.navigate", session, url=url)
        return session

    async def until_shown(self, session: str, text: str) -> None:
        async with asyncio.timeout(WAIT_S):
            while text.encode() not in _flat(self.frames[session]):
                self.arrived.clear()
                await self.arrived.wait()

    async def type(self, session: str, text: str) -> None:
        """Give the terminal the keys (its input element, as a click would), type ``text``
        and press Enter."""
        focus = "document.querySelector('.xterm-helper-textarea').focus()"
        await self.send("Runtime.evaluate", session, expression=focus)
        await self.send("Input.insertText", session, text=text)
        for kind in ("keyDown", "keyUp"):
            await self.send(
                "Input.dispatchKeyEvent", session, type=kind, key="Enter", code="Enter",
                windowsVirtualKeyCode=13, text="\r" if kind == "keyDown" else "",
            )  # fmt: skip


def _flat(frames: bytes) -> bytes:
    """What a page's frames say, with the runs of spaces and line ends a screen puts between
    words made one space (text is drawn where it fits, not as it was typed)."""
    return re.sub(rb"\s+", b" ", frames)


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[str]:
    """Headless Chromium for the test; the address of its DevTools endpoint."""
    assert CHROMIUM is not None
    browser = subprocess.Popen(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1200,900",
         "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        yield _devtools_url(browser)
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=30)
        except subprocess.TimeoutExpired:
            browser.kill()


@contextlib.asynccontextmanager
async def devtools(address: str) -> AsyncIterator[DevTools]:
    async with websockets.connect(address, max_size=None, proxy=None) as ws:
        client = DevTools(ws)
        try:
            yield client
        finally:
            client.reader.cancel()


def _devtools_url(browser: subprocess.Popen[str]) -> str:
    assert browser.stderr is not None
    for line in browser.stderr:
        found = re.search(r"DevTools listening on (ws://\S+)", line)
        if found:
            return found[1]
    raise AssertionError("Chromium never said where DevTools listens")


@pytest.fixture
def space(tmp_path: Path) -> Iterator[Space]:
    served = _open(tmp_path)
    yield served
    served.stop()


def stored(tmp_path: Path, sender: str) -> list[str]:
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        rows = db.execute(
            "SELECT content FROM messages WHERE role = 'user'"
            " AND json_extract(meta, '$.sender') = ?",
            (sender,),
        ).fetchall()
    return [content for (content,) in rows]


async def _browse(address: str, space: Space, tmp_path: Path) -> None:
    async with devtools(address) as browser:
        alex = await browser.page(space.seat_url("Alex"))
        sam = await browser.page(space.seat_url("Sam"))
        await browser.until_shown(alex, "You are Alex")
        await browser.until_shown(sam, "You are Sam")
        await browser.type(alex, f"Can we talk about the {MARKER} tonight?")
        async with asyncio.timeout(WAIT_S):
            # the host (another process) stores it when it answers: nothing here to await
            while not any(MARKER in said for said in stored(tmp_path, "Alex")):  # noqa: ASYNC110
                await asyncio.sleep(0.1)
        await browser.until_shown(alex, MARKER)
        await browser.until_shown(alex, "to you, privately")  # the mediator's private answer
        assert MARKER.encode() not in _flat(browser.frames[sam])


def test_a_seat_in_a_real_browser_sends_as_its_participant_and_the_other_seat_never_sees_it(
    space: Space, tmp_path: Path
) -> None:
    with chromium(tmp_path / "chromium") as address:
        asyncio.run(_browse(address, space, tmp_path))
