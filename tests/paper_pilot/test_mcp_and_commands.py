"""The knowledge server over MCP (a real subprocess), a user's own server, a server that cannot
start, the web fallback, and the kb / memory verbs of the real command."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agents.profiles.paper_pilot.knowledge.client import (
    KnowledgeClient,
    KnowledgeError,
    chosen_connection,
)
from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from agents.profiles.paper_pilot.web_search import web_search
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import ask

ROOT = Path(__file__).resolve().parents[2]


async def test_the_embedded_server_answers_its_three_tools_and_leaves_no_session_task(
    tmp_path: Path,
) -> None:
    name, connection = chosen_connection({}, tmp_path / "index.sqlite")
    client = KnowledgeClient(name, connection)
    try:
        hits = await client.query("LoRA full fine-tuning")
        assert hits[0].doc_id == "ml/lora"
        collections = await client.call("list_collections", {})
        assert {c["name"] for c in collections["collections"]} == {"agents", "ml"}
        summary = await client.call("get_document_summary", {"doc_id": "ml/dpo"})
        assert summary["title"].startswith("DPO")
        assert "Compared with RLHF" in summary["sections"]
        missing = await client.call("get_document_summary", {"doc_id": "nope"})
        assert "no document" in missing["error"]
    finally:
        await client.aclose()
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("mcp:")]


async def test_a_users_own_stdio_server_is_used_instead_and_its_escapes_never_reach_the_model(
    tmp_path: Path,
) -> None:
    """A user's own stdio server answers in place of the embedded one, and the escape
    sequences its notes hold never reach the model or the screen."""
    own = tmp_path / "own"
    own.mkdir()
    hostile = "Zebra stripes\x1b]52;c;cm0gLXJmIH4K\x07 deter\x1b[2J\x9b31m flies.\x9d0;x\x9c"
    (own / "zebras.md").write_text(f"# Zebras\x1b]0;pwned\x07\n\n## Stripes\n{hostile}\n")
    with KnowledgeIndex(tmp_path / "own.sqlite") as index:
        index.add_folder(own, "zoo")
    settings = {"mcp": {"connections": {"zoo": {
        "transport": "stdio", "command": sys.executable,
        "args": ["-m", "agents.profiles.paper_pilot.knowledge.server", "--index",
                 str(tmp_path / "own.sqlite")],
        "env": {"PYTHONPATH": str(ROOT)},
    }}}}  # fmt: skip
    name, connection = chosen_connection(settings, tmp_path / "unused.sqlite")
    client = KnowledgeClient(name, connection)
    try:
        hits = await client.query("why do zebras have stripes")
        summary = await client.call("get_document_summary", {"doc_id": "zoo/zebras"})
    finally:
        await client.aclose()
    assert name == "zoo"
    assert hits[0].doc_id == "zoo/zebras"
    said = json.dumps([[h.title, h.section, h.text] for h in hits], ensure_ascii=False)
    said += json.dumps(summary, ensure_ascii=False)
    assert "Zebra stripes deter flies." in said
    assert not [c for c in said if (c < " " and c not in "\n\t") or "\x7f" <= c < "\xa0"], said


async def test_a_server_that_cannot_start_is_one_sentence(tmp_path: Path) -> None:
    settings = {"mcp": {"connections": {"broken": {"command": str(tmp_path / "missing")}}}}
    client = KnowledgeClient(*chosen_connection(settings, tmp_path / "i.sqlite"))
    with pytest.raises(KnowledgeError, match="could not be started or reached"):
        await client.query("anything")
    await client.aclose()


async def test_a_turn_with_the_server_down_says_so_and_does_not_crash(
    pilot_runtime: tuple[AgentRuntime, SqliteConversationStore], tmp_path: Path
) -> None:
    runtime, store = pilot_runtime
    runtime.profile_settings = {"mcp": {"connections": {"down": {"command": str(tmp_path / "x")}}}}
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await ask(runtime, store, conversation.id, "What is LoRA?")
    assert "could not be started or reached" in turn.reply.content
    assert any("retrieve:" in line and "could not" in line for line in turn.stages)


class _Search(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        asked = json.loads(self.rfile.read(length))
        body = json.dumps({"results": [{"title": "Otters on the web",
                                        "url": "https://example.org/otters",
                                        "content": f"Found for {asked['query']}."}]})  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


async def test_the_web_fallback_cites_urls_from_a_search_service() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Search)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/search"
        chunks = await web_search({"enabled": True, "url": url, "api_key": "k"}, "otters")
        assert chunks[0]["path"] == "https://example.org/otters"
        assert chunks[0]["text"] == "Found for otters."
    finally:
        server.shutdown()


def test_kb_add_and_list_through_the_command(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    notes = tmp_path / "mynotes"
    notes.mkdir()
    (notes / "a.md").write_text("# Alpha\nAlpha particles are helium nuclei.\n")
    added = weaver("kb", "add", str(notes), "--collection", "physics")
    assert added.returncode == 0, added.stderr
    assert "collection physics: 1 added" in added.stdout
    assert "1/1" not in added.stderr  # no bar redrawn into a pipe
    again = weaver("kb", "add", str(notes), "--collection", "physics")
    assert "0 added, 0 updated, 1 unchanged" in again.stdout
    listed = weaver("kb", "list")
    assert "physics  1 documents" in listed.stdout
    assert "ml  6 documents" in listed.stdout
    missing = weaver("kb", "add", str(tmp_path / "nope"))
    assert missing.returncode == 2
    assert "is not a folder" in missing.stderr


def test_ask_prints_the_stages_and_a_cited_answer_then_memory_lists_it(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    asked = weaver("--provider", "offline", "ask", "--profile", "paper-pilot", "What is LoRA?")
    assert asked.returncode == 0, asked.stderr
    assert "route: intent factual" in asked.stderr
    assert "critic: passed" in asked.stderr
    assert "[1]" in asked.stdout
    assert "**Sources**" in asked.stdout
    facts = weaver("memory", "list")
    assert facts.returncode == 0
    assert "LoRA" in facts.stdout
    first_id = facts.stdout.split()[0]
    assert weaver("memory", "forget", first_id).returncode == 0
    assert weaver("memory", "forget", "9999").returncode == 1


async def test_a_users_own_server_over_streamable_http(tmp_path: Path) -> None:
    import socket
    import subprocess
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "agents.profiles.paper_pilot.knowledge.server",
        "--index", str(tmp_path / "http.sqlite"), "--sample", "--http", str(port),
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        async with httpx.AsyncClient(timeout=1) as http:
            while time.monotonic() < deadline:
                try:
                    await http.get(f"http://127.0.0.1:{port}/mcp")
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.2)
        settings = {"mcp": {"connections": {"remote": {
            "transport": "streamable_http", "url": f"http://127.0.0.1:{port}/mcp"}}}}  # fmt: skip
        client = KnowledgeClient(*chosen_connection(settings, tmp_path / "unused.sqlite"))
        try:
            hits = await client.query("direct preference optimization reward model")
            assert client.name == "remote"
            assert hits[0].doc_id == "ml/dpo"
        finally:
            await client.aclose()
    finally:
        server.terminate()
        await asyncio.wait_for(server.wait(), 10)


async def test_when_retries_are_spent_the_web_fallback_answers_with_urls(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    from agents.offline import OfflineChatModel, OfflineTurn, Reply
    from agents.profiles.paper_pilot.offline import STEPS
    from tests.paper_pilot.test_follow_up_and_memory import _rejecting_critic

    def cite_the_web_result(turn: OfflineTurn) -> Reply:
        # The web results are numbered after the chunks the node's state already holds.
        return Reply(text=f"Otters eat fish [{len(turn.state.get('chunks') or []) + 1}].")

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Search)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    runtime, store = notes_runtime
    runtime.profile_settings = {**runtime.profile_settings, "web_search": {
        "enabled": True, "url": f"http://127.0.0.1:{server.server_address[1]}/search",
        "api_key": "test-key"}}  # fmt: skip
    try:
        conversation = store.create_conversation("paper-pilot", "research")
        scripted = {"critic": _rejecting_critic, "web_fallback": cite_the_web_result}
        model = OfflineChatModel().with_steps({**STEPS, **scripted})
        turn = await ask(runtime, store, conversation.id, "What do otters eat?", model=model)
    finally:
        server.shutdown()
    assert any(s["stage"] == "web_fallback" for s in turn.trace["stages"])
    assert "(`https://example.org/otters`) (web)" in turn.reply.content  # marked as the web's
    assert turn.trace["settled"] == "from the web"
    # Nothing in the notes is about otters: the web is asked at once, with no retries first.
    assert not any(s["stage"] == "retry_refine" for s in turn.trace["stages"])
    assert turn.reply.meta["check"]["state"] == "unchecked"
    assert any(line.startswith("web_fallback:") for line in turn.stages)


def test_kb_adds_progress_bar_on_a_terminal_ends_its_line(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    from tests.cli.conftest import REPO, isolated_env

    notes = tmp_path / "mynotes"
    notes.mkdir()
    (notes / "a.md").write_text("# Alpha\nAlpha particles are helium nuclei.\n")
    (notes / "b.md").write_text("# Beta\nBeta particles are electrons.\n")
    master, slave = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "kb", "add", str(notes)],
        cwd=REPO, env=isolated_env(tmp_path), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=slave,
    ) as process:  # fmt: skip
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal's other end closed: the command is done
                break
            if not chunk:
                break
            seen += chunk
        summary = process.stdout.read().decode() if process.stdout else ""
        assert process.wait(timeout=120) == 0
    os.close(master)
    terminal = seen.decode()
    assert "2/2" in terminal
    assert terminal.endswith("\r\n")
    assert "2 added" in summary
