"""A participant's message sent with ``weaver-tui ask --sender`` is private to them as the
store reads it, so the model reads it marked as private and a post for everyone that repeats it
is held (over the fake OpenAI-compatible server; the generated cases of every meta spelling:
``tests/mediator/test_one_meaning_of_private.py``)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from agents.shared_space.marks import private_mark
from agents.shared_space.space import shared_channel
from storage.sqlite_store import SqliteConversationStore
from tests.cli.test_ask import _server_env
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


def test_a_shared_post_quoting_what_a_participant_said_through_ask_is_held(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    tmp_path: Path,
) -> None:
    secret = "I moved two thousand from the joint account to pay my brother's debts."
    db = tmp_path / "data" / "weaver.db"
    db.parent.mkdir(parents=True)
    with SqliteConversationStore(db) as store:
        space = store.create_conversation("mediator", "t", meta={"participants": ["Alex", "Sam"]})
    env = _server_env(fake_openai)
    fake_openai.script(Reply("Thank you for telling me."))
    said = weaver("ask", "--conversation", space.id, "--sender", "Sam", secret, env=env)
    assert said.returncode == 0, said.stderr
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": f"Sam says: {secret}"})]),
        Reply("I could not post that."),
    )
    asked = weaver("ask", "--conversation", space.id, "--sender", "Alex", "Where did it go?",
                   env=env)  # fmt: skip
    assert asked.returncode == 0, asked.stderr

    sent = fake_openai.chat_bodies[-1]["messages"]
    sams = [m["content"] for m in sent if m["role"] == "user" and m.get("name") == "Sam"]
    assert sams == [f"{private_mark('Sam')}\n{secret}"]
    with SqliteConversationStore(db) as store:
        leaf = store.active_leaf(space.id)
        assert leaf is not None
        everyone = shared_channel(store.path_to_root(leaf.id))
        alex_reads = store.path_to_root(leaf.id, "Alex")
    assert all("brother" not in line.content for line in everyone)
    assert all("brother" not in record.content for record in alex_reads)
