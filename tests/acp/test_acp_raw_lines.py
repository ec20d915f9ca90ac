"""A real ``weaver-tui acp`` fed raw lines: every line that is not one JSON-RPC object gets one
JSON-RPC error (``-32700`` for what is not JSON, ``-32600`` for a batch, another value, a bad
id or method, a line over the limit), and the agent keeps serving: ``initialize`` after them
is still answered.

The class (:func:`weaver_tui.core.acp_agent.line_filter.check_line`): any line is either handed to
the SDK as one object with a usable id and method, or answered with an error; generated
lines never raise.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.acp.recording_client import WAIT_S
from tests.cli.conftest import isolated_env
from weaver_tui.core.acp_agent.line_filter import INVALID_REQUEST, PARSE_ERROR, check_line

INITIALIZE = {"jsonrpc": "2.0", "id": 99, "method": "initialize",
              "params": {"protocolVersion": 1, "clientCapabilities": {}}}  # fmt: skip

HOSTILE: list[tuple[bytes, int]] = [
    (b'[{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}]', INVALID_REQUEST),
    (b"[]", INVALID_REQUEST),
    (b"42", INVALID_REQUEST),
    (b'"initialize"', INVALID_REQUEST),
    (b"null", INVALID_REQUEST),
    (b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "initialize"}', INVALID_REQUEST),
    (b'{"jsonrpc": "2.0", "id": 5, "method": 7}', INVALID_REQUEST),
    (b'{"jsonrpc": "2.0"}', INVALID_REQUEST),
    (b"this is not json", PARSE_ERROR),
    (b'{"jsonrpc": "2.0", "id": 3', PARSE_ERROR),
    (b"[" * 100_000 + b"]" * 100_000, PARSE_ERROR),
    (b"\xff\xfe\x00", PARSE_ERROR),
]


async def _read_message(stdout: asyncio.StreamReader) -> dict[str, Any]:
    line = await asyncio.wait_for(stdout.readline(), WAIT_S)
    assert line, "the agent closed its output"
    message = json.loads(line)
    assert isinstance(message, dict)
    return message


async def test_raw_hostile_lines_get_errors_and_the_agent_keeps_serving(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "weaver_tui", "acp",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, env=isolated_env(tmp_path), cwd=tmp_path,
        limit=2**26,
    )  # fmt: skip
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        for line, code in HOSTILE:
            process.stdin.write(line + b"\n")
            await process.stdin.drain()
            answer = await _read_message(process.stdout)
            assert answer["error"]["code"] == code, (line[:40], answer)
        too_big = json.dumps({**INITIALIZE, "id": 7, "pad": "x" * (51 * 1024 * 1024)})
        process.stdin.write(too_big.encode() + b"\n")
        await process.stdin.drain()
        answer = await _read_message(process.stdout)
        assert answer["error"]["code"] == INVALID_REQUEST
        assert answer["id"] == 7
        process.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        await process.stdin.drain()
        answer = await _read_message(process.stdout)
        assert answer["id"] == 99
        assert "result" in answer
    finally:
        process.stdin.close()
        await asyncio.wait_for(process.wait(), WAIT_S)
    assert process.returncode == 0


@given(line=st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
@settings(max_examples=150, deadline=None)
def test_any_line_passes_as_one_object_or_gets_an_error(line: bytes) -> None:
    refusal = check_line(line, 1000)
    if refusal is None:
        if line.strip():
            message = json.loads(line)
            assert isinstance(message, dict)
    else:
        assert refusal["error"]["code"] in (INVALID_REQUEST, PARSE_ERROR)
        assert refusal["jsonrpc"] == "2.0"


@pytest.mark.parametrize("value", [[1], 3, "x", None, True])
def test_a_non_object_is_an_invalid_request(value: object) -> None:
    refusal = check_line(json.dumps(value).encode(), 1000)
    assert refusal is not None
    assert refusal["error"]["code"] == INVALID_REQUEST


_lines = st.lists(
    st.sampled_from([json.dumps(INITIALIZE).encode(), b"[1]", b"nope", b"", b"{}"])
    | st.binary(max_size=30).map(lambda b: b.replace(b"\n", b" "))
    | st.integers(150, 2000).map(lambda n: b'{"id": 1, "method": "m", "p": "' + b"x" * n + b'"}'),
    max_size=8,
)


@given(lines=_lines)
@settings(max_examples=100, deadline=None)
def test_the_pump_passes_or_answers_every_line_in_order(lines: list[bytes]) -> None:
    """Lines longer than the limit, and past the read ceiling (cut), are answered too."""
    from weaver_tui.core.acp_agent.line_filter import pump

    async def run() -> tuple[list[bytes], list[dict[str, Any]]]:
        source = asyncio.StreamReader(limit=64)
        source.feed_data(b"".join(line + b"\n" for line in lines))
        source.feed_eof()
        target = asyncio.StreamReader()
        answers: list[dict[str, Any]] = []
        await asyncio.wait_for(pump(source, target, answers.append, 100), WAIT_S)
        passed = (await target.read()).split(b"\n")[:-1]
        return passed, answers

    passed, answers = asyncio.run(run())
    assert len(passed) + len(answers) == len(lines)
    assert passed == [line for line in lines if check_line(line + b"\n", 100) is None]
    assert all(len(line) <= 100 for line in passed)
