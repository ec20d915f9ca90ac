"""One app per seat and the caps of a space, over a real ``space open``, real seat processes
and real websockets: a seat link opened ten times at once runs one app (the earlier
connections are told and closed), and a connection past the per-space or per-address cap is
refused with 429 and one sentence. ``space join`` keeps the link off the command line."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.cli.test_space import WAIT_S, Space, _connect, _open, join
from weaver_tui.core.space_server import TAKEN_OVER_CODE

SEAT_MARKER = b"Alex"
"""What a seat's app draws once running (its participant's name)."""


def _seat_apps(space: Space) -> int:
    """The seat apps running under the host's process now."""
    count = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == space.process.pid and b"\0seat\0" in cmdline:
            count += 1
    return count


class AppCounter:
    """The most seat apps seen running at once, sampled until stopped."""

    def __init__(self, space: Space) -> None:
        self.space = space
        self.most = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.stopped.wait(0.01):
            self.most = max(self.most, _seat_apps(self.space))

    def stop(self) -> int:
        self.stopped.set()
        self.thread.join()
        return self.most


async def _hold(
    space: Space, name: str, settled: asyncio.Event, seen: asyncio.Event | None = None
) -> tuple[int | None, str]:
    """Connect to ``name``'s seat and read until closed or ``settled``: the close code and
    reason, or (None, what arrived) when still connected; ``seen`` is set once the seat's
    app drew its participant's name."""
    async with _connect(space, name) as ws:
        received = b""
        while not settled.is_set():
            try:
                async with asyncio.timeout(0.2):
                    message = await ws.recv()
            except TimeoutError:
                continue
            except ConnectionClosed:
                return ws.close_code, ws.close_reason or ""
            received += message if isinstance(message, bytes) else message.encode()
            if seen is not None and name.encode() in received:
                seen.set()
        return None, received.decode("utf-8", "replace")


async def _refused(space: Space, name: str) -> tuple[int, str]:
    try:
        async with _connect(space, name):
            return 101, ""
    except InvalidStatus as exc:
        return exc.response.status_code, exc.response.body.decode()


def test_a_seat_opened_ten_times_at_once_runs_one_app_and_tells_the_earlier_ones(
    tmp_path: Path,
) -> None:
    space = _open(tmp_path, "--max-connections-per-address", "10", "--max-seat-apps", "1")
    counter = AppCounter(space)
    try:

        async def storm() -> list[tuple[int | None, str]]:
            settled, seen = asyncio.Event(), asyncio.Event()
            holders = [asyncio.create_task(_hold(space, "Alex", settled, seen)) for _ in range(10)]
            async with asyncio.timeout(WAIT_S):
                for done, finished in enumerate(asyncio.as_completed(holders), start=1):
                    await finished
                    if done == 9:  # every connection but the survivor was closed
                        break
                await seen.wait()  # the survivor's app runs: the others have stopped
            refused_other = await _refused(space, "Sam")
            settled.set()
            results = await asyncio.gather(*holders)
            assert refused_other[0] == 429, refused_other
            assert "limit" in refused_other[1]
            return results

        results = asyncio.run(storm())
    finally:
        most = counter.stop()
        space.stop()
    assert most <= 1
    closed = [result for result in results if result[0] is not None]
    assert len(closed) == 9
    assert {code for code, _ in closed} == {TAKEN_OVER_CODE}
    assert all("another window" in reason for _, reason in closed)
    assert any(SEAT_MARKER.decode() in text for code, text in results if code is None)
    assert "refused a seat connection over a cap" in "".join(space.stderr)


def test_an_address_past_its_cap_is_refused_with_one_sentence(tmp_path: Path) -> None:
    space = _open(tmp_path, "--max-connections-per-address", "1")
    try:

        async def two() -> tuple[int, str]:
            settled, seen = asyncio.Event(), asyncio.Event()
            alex = asyncio.create_task(_hold(space, "Alex", settled, seen))
            async with asyncio.timeout(WAIT_S):
                await seen.wait()
            refused = await _refused(space, "Sam")
            settled.set()
            code, _ = await alex
            assert code is None  # the first connection is untouched
            return refused

        status, sentence = asyncio.run(two())
    finally:
        space.stop()
    assert status == 429
    assert "your address" in sentence
    assert sentence.count("\n") == 1


def _cmdline(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def test_space_join_clears_the_link_from_its_command_line_and_takes_it_pasted(
    tmp_path: Path,
) -> None:
    space = _open(tmp_path)
    try:
        given = join(tmp_path, space.seat_url("Alex"))
        try:
            given.wait_for(SEAT_MARKER)
            assert space.seats["Alex"].encode() not in _cmdline(given.process.pid)
            assert b"space join" in _cmdline(given.process.pid)
            again = join(tmp_path, space.seat_url("Alex"))  # the seat opened elsewhere
            try:
                again.wait_for(SEAT_MARKER)
                given.wait_for(b"another window")  # the first terminal was told
            finally:
                again.process.terminate()
                again.close()
        finally:
            given.process.terminate()
            given.close()
        pasted = join(tmp_path, "-")
        try:
            pasted.wait_for(b"Paste the line")
            pasted.type(space.seat_url("Sam").encode() + b"\r", pause_s=0)
            pasted.wait_for(b"Sam")
            assert space.seats["Sam"].encode() not in _cmdline(pasted.process.pid)
            assert space.seats["Sam"].encode() not in pasted.screen  # not echoed
        finally:
            pasted.process.terminate()
            pasted.close()
    finally:
        space.stop()


def test_space_join_reads_a_piped_link(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.cli.conftest import isolated_env

    space = _open(tmp_path)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "weaver_tui", "space", "join", "-"],
            input=space.seat_url("Alex") + "\n",
            capture_output=True,
            text=True,
            env=isolated_env(tmp_path),
            cwd=tmp_path,
            timeout=WAIT_S,
            start_new_session=True,  # no controlling terminal to take keys from
        )
    finally:
        space.stop()
    # the link was read and accepted: what is missing is only a terminal for the keys
    assert done.returncode != 0
    assert "needs a terminal" in done.stderr
    assert "Traceback" not in done.stderr
    assert space.seats["Alex"] not in done.stderr
