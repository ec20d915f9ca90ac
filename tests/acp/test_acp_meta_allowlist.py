"""``_meta`` never replaces a parameter: only the keys the agent reads pass. Generated request
lines, and a real ``weaver-tui acp`` given a ``_meta`` named like ``session/new``'s ``cwd``."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.acp.recording_client import WAIT_S
from tests.cli.conftest import isolated_env
from weaver_tui.core.acp_agent.meta_allowlist import READ_KEYS, allowed_meta

values = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
keys = st.sampled_from(["cwd", "session_id", "sessionId", "prompt", "messageId", "x"]) | st.text(
    max_size=8
)


@settings(max_examples=200, deadline=None)
@given(
    params=st.dictionaries(st.text(max_size=6), values, max_size=4),
    meta=st.dictionaries(keys, values, max_size=5) | values,
)
def test_only_the_keys_the_agent_reads_pass(params: dict[str, Any], meta: Any) -> None:
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "session/new",
        "params": {**params, "_meta": meta},
    }
    passed = json.loads(allowed_meta(json.dumps(request).encode()))
    kept = passed["params"].pop("_meta", None) or {}
    assert set(kept) <= READ_KEYS
    if isinstance(meta, dict):
        assert kept == {k: v for k, v in meta.items() if k in READ_KEYS}
    assert passed["params"] == {k: v for k, v in params.items() if k != "_meta"}
    assert {k: v for k, v in passed.items() if k != "params"} == {
        k: v for k, v in request.items() if k != "params"
    }


def test_a_line_with_nothing_to_cut_passes_as_it_is() -> None:
    line = b'{"jsonrpc": "2.0", "id": 1, "method": "session/fork", "params": {"_meta": {"messageId": "m"}}}'
    assert allowed_meta(line) is line


async def _answer(process: asyncio.subprocess.Process, message: dict[str, Any]) -> dict[str, Any]:
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    await process.stdin.drain()
    while True:
        line = await asyncio.wait_for(process.stdout.readline(), WAIT_S)
        assert line, "the agent closed its output"
        answer = json.loads(line)
        if answer.get("id") == message["id"]:
            return dict(answer)


async def test_meta_named_like_a_parameter_does_not_replace_it(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "weaver_tui", "--provider", "offline", "acp",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, env=isolated_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    try:
        await _answer(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"protocolVersion": 1, "clientCapabilities": {}}})  # fmt: skip
        opened = await _answer(process, {"jsonrpc": "2.0", "id": 2, "method": "session/new",
                                         "params": {"cwd": str(tmp_path), "mcpServers": [],
                                                    "_meta": {"cwd": 5, "mcp_servers": "x"}}})  # fmt: skip
    finally:
        assert process.stdin is not None
        process.stdin.close()
        await asyncio.wait_for(process.wait(), WAIT_S)
    assert "error" not in opened, opened
    assert opened["result"]["sessionId"]
