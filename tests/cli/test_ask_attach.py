"""``ask --attach FILE`` and piped input: the files are stored on the user's message, sent to
the model as content parts (text in a fence naming the file, images as image parts), and
limited with the message; a binary file or a missing one is refused before anything is
stored. Run as the command runs (in this process, stdin a real pipe), over real HTTP to the
local test server."""

from __future__ import annotations

import base64
import os
import sqlite3
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from tests.cli.conftest import CLI_TIMEOUT_S
from tests.support.fake_openai import FakeOpenAI, Reply

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)


Weaver = Callable[..., subprocess.CompletedProcess[str]]


def _server_settings(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-test-not-a-real-key",
        "WEAVER_MODEL": "fake-model",
    }


def ask(
    weaver: Weaver, fake_openai: FakeOpenAI, *args: str, stdin: bytes | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    settings = {**_server_settings(fake_openai), **env}
    return weaver("ask", *args, env=settings, stdin=stdin if stdin is not None else b"")


def stored_attachments(tmp_path: Path) -> list[str]:
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        rows = db.execute("SELECT meta FROM messages WHERE role = 'user'").fetchall()
    return [meta for (meta,) in rows]


def test_attached_files_and_piped_input_reach_the_model(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    (tmp_path / "build.log").write_text("error: linker failed at step 3\n", encoding="utf-8")
    (tmp_path / "shot.png").write_bytes(PNG)
    fake_openai.script(Reply("The linker failed."))
    done = ask(
        weaver, fake_openai, "--attach", "build.log", "--attach", "shot.png",
        "why did this fail?", stdin=b"piped: make: *** [all] Error 2\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    content = fake_openai.chat_bodies[-1]["messages"][-1]["content"]
    texts = [part.get("text", "") for part in content if part["type"] == "text"]
    assert texts[0] == "why did this fail?"
    assert any("Attached file build.log:" in t and "linker failed" in t for t in texts)
    assert any("Attached file stdin:" in t and "Error 2" in t for t in texts)
    images = [part for part in content if part["type"] == "image_url"]
    assert images
    assert images[0]["image_url"]["url"].startswith("data:image/png;base64,")
    (meta,) = stored_attachments(tmp_path)
    assert '"name":"build.log"' in meta
    assert '"name":"stdin"' in meta


def test_a_binary_or_missing_file_is_refused_before_anything_is_stored(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    (tmp_path / "blob.bin").write_bytes(b"\x00\xff\xfe" * 10)
    for name, said in (("blob.bin", "is not text"), ("nope.txt", "cannot be attached")):
        done = ask(weaver, fake_openai, "--attach", name, "look")
        assert done.returncode == 2, done.stderr
        assert said in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "data" / "weaver.db").exists() or not stored_attachments(tmp_path)


def test_attachments_count_toward_the_message_limit(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    (tmp_path / "big.log").write_text("x" * 5000, encoding="utf-8")
    done = ask(weaver, fake_openai, "--attach", "big.log", "hi", WEAVER_MAX_MESSAGE_BYTES="2000")
    assert done.returncode == 2
    assert "limit" in done.stderr


def test_the_offline_model_says_it_cannot_see_an_image(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    (tmp_path / "shot.png").write_bytes(PNG)
    done = ask(weaver, fake_openai, "--attach", "shot.png", "what is this?", WEAVER_PROVIDER="offline")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "cannot see images" in done.stdout


def test_a_silent_open_pipe_on_stdin_does_not_hang_ask(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("hello"))
    read_end, write_end = os.pipe()  # stdin: a pipe nobody writes to
    # Closed (ending the pipe) only if ``ask`` is still waiting on it long after it should
    # have gone on: then the test fails instead of hanging.
    ended_by_the_test = threading.Event()

    def end_the_pipe() -> None:
        ended_by_the_test.set()
        os.close(write_end)

    bound = threading.Timer(CLI_TIMEOUT_S / 4, end_the_pipe)
    bound.start()
    try:
        with open(read_end, encoding="utf-8") as stdin:
            done = weaver("ask", "hi", env=_server_settings(fake_openai), stdin=stdin)
    finally:
        bound.cancel()
        bound.join()  # it has ended the pipe, or never will
        if not ended_by_the_test.is_set():
            os.close(write_end)
    assert not ended_by_the_test.is_set(), "ask waited on a silent pipe"
    assert done.returncode == 0, done.stderr
    assert "attachments" not in "".join(stored_attachments(tmp_path))


def test_the_offline_helper_reads_an_attached_file_and_proposes_no_change_unasked(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """An attached file full of quoted literals is read, never taken for a rename request."""
    source = (
        'def load():\n    """Load "settings" once."""\n    return load_config("settings.toml")\n'
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(source, encoding="utf-8")
    done = ask(
        weaver, fake_openai, "--profile", "ide-helper", "--attach", "src/app.py",
        "what does this do?", WEAVER_PROVIDER="offline",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "propose_edit" not in done.stderr  # no patch proposed
    assert (tmp_path / "src" / "app.py").read_text(encoding="utf-8") == source
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        tools = [row[0] for row in db.execute("SELECT content FROM messages WHERE role = 'tool'")]
    assert not any("patch" in text.lower() for text in tools)


def test_a_rename_in_a_missing_file_or_no_file_changes_no_other_file(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """The demo renames only in the file the words name: a missing one is read and fails, no
    file named is a sentence asking for it; another file that mentions the name is never
    edited in its place."""
    notes = "Call load_config() once.\n"
    (tmp_path / "notes.md").write_text(notes, encoding="utf-8")
    for request in (
        "rename `load_config` to `read_config` in src/missing.py",
        "rename `load_config` to `read_config`",
    ):
        done = ask(weaver, fake_openai, "--profile", "ide-helper", request,
                   WEAVER_PROVIDER="offline")  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "propose_edit" not in done.stderr
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == notes
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        tools = [row[0] for row in db.execute("SELECT content FROM messages WHERE role = 'tool'")]
    assert not any("patch" in text.lower() for text in tools)
