"""``ask --json`` carries the reply's trace: a real ``weaver-tui ask`` process, paper-pilot on
the shared notes, its turn's model and its critic role on two local OpenAI-compatible servers.
After the reply's ``record`` line comes one ``trace`` line per stage, in order, with stable
keys; each stage that asked a model names the model its calls asked (the critic's own), each
stage that asked none names none; ``--quiet``'s result carries the same stages."""

from __future__ import annotations

import io
import json
import subprocess
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime import events as ev
from agents.structured import MEMO
from storage.models import MessageRecord
from tests.cli.test_ask import _server_env
from tests.paper_pilot.drafts import SETTLED, route, verdict
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.shared_notes import notes_settings_for
from weaver_tui.core.cli.json_events import JsonEventPrinter, trace_json

TRACE_KEYS = {"event", "message_id", "step", "stage", "model", "ms", "facts"}
ASKS_NO_MODEL = {"load_memory", "scope", "direct", "audit", "save_memory"}


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


@pytest.fixture
def critic_server() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(default=None).start()
    try:
        yield server
    finally:
        server.stop()


def ask(
    subprocess_cli: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    critic_server: FakeOpenAI,
    notes_url: str,
    tmp_path: Path,
    *flags: str,
) -> list[dict[str, Any]]:
    settings: dict[str, Any] = notes_settings_for(notes_url, tmp_path)
    settings["roles"] = {"critic": {"name": "openai-compatible", "model": "small-critic",
                                    "base_url": critic_server.base_url, "api_key": "sk-critic"}}  # fmt: skip
    (tmp_path / "config.yaml").write_text(json.dumps(settings), encoding="utf-8")
    fake_openai.script(route(), Reply(SETTLED))
    critic_server.script(verdict(True))
    done = subprocess_cli("ask", "--profile", "paper-pilot", "--json", *flags, "What is LoRA?",
                          env=_server_env(fake_openai))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_each_stage_is_a_trace_line_naming_the_model_its_calls_asked(
    subprocess_cli: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    critic_server: FakeOpenAI,
    notes_url: str,
    tmp_path: Path,
) -> None:
    lines = ask(subprocess_cli, fake_openai, critic_server, notes_url, tmp_path)

    finished = lines[-1]
    assert finished["event"] == "finished"
    traced = [line for line in lines if line["event"] == "trace"]
    assert traced, [line["event"] for line in lines]
    first = lines.index(traced[0])
    record = lines[first - 1]
    assert record["event"] == "record"
    assert record["message"]["id"] == finished["leaf_id"]
    assert lines[first : first + len(traced)] == traced  # together, after the reply's record
    assert all(set(line) == TRACE_KEYS for line in traced)
    assert all(line["message_id"] == finished["leaf_id"] for line in traced)
    assert [line["step"] for line in traced] == list(range(1, len(traced) + 1))
    assert all(isinstance(line["ms"], int | float) for line in traced)
    assert all(isinstance(line["facts"], dict) for line in traced)
    models = {line["stage"]: line["model"] for line in traced}
    assert models["route"] == models["synthesize"] == "fake-model"
    assert models["critic"] == "small-critic"
    assert all(models[stage] is None for stage in ASKS_NO_MODEL & set(models))
    assert [b["model"] for b in critic_server.chat_bodies] == ["small-critic"]
    assert traced[0]["stage"] == "load_memory"


def test_quiet_gives_the_same_stages_in_the_result(
    subprocess_cli: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    critic_server: FakeOpenAI,
    notes_url: str,
    tmp_path: Path,
) -> None:
    [result] = ask(subprocess_cli, fake_openai, critic_server, notes_url, tmp_path, "--quiet")

    assert result["event"] == "result"
    stages = result["trace"]
    assert [s["step"] for s in stages] == list(range(1, len(stages) + 1))
    assert all(set(s) == TRACE_KEYS - {"event"} for s in stages)
    assert {s["stage"]: s["model"] for s in stages}["critic"] == "small-critic"
    assert all(s["message_id"] == result["reply_id"] for s in stages)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(stages=st.lists(st.dictionaries(st.sampled_from(["stage", "ms", "model", "query", "found", "\x1b"]),
                                       JSON_VALUES, max_size=5), max_size=6),
       role=st.sampled_from(["assistant", "user", "tool"]))  # fmt: skip
def test_any_trace_gives_one_line_per_stage_with_stable_keys(
    stages: list[dict[str, Any]], role: str
) -> None:
    """Whatever a trace holds, a reply's trace lines have exactly the stable keys, in step
    order, a ``model`` that is a name or ``null``, an ``ms`` that is a number or ``null``, and
    each prints as one JSON line with no control character; a record that is not a reply has
    none."""
    record = MessageRecord(id="r1", conversation_id="c", role=role, content="", parent_id=None,  # type: ignore[arg-type]
                           depth=1, version=1, created_at=datetime.now(UTC),
                           meta={"trace": stages})  # fmt: skip
    lines = trace_json(record, lambda meta: meta["trace"])
    if role != "assistant":
        assert lines == []
        return
    assert [line["step"] for line in lines] == list(range(1, len(stages) + 1))
    for line, stage in zip(lines, stages, strict=True):
        assert set(line) == TRACE_KEYS
        assert line["model"] is None or (isinstance(line["model"], str) and line["model"])
        assert line["ms"] is None or type(line["ms"]) in (int, float)
        assert set(line["facts"]) == set(stage) - {"stage", "ms", "model"}
    out = io.StringIO()
    printer = JsonEventPrinter(out, stages_of=lambda meta: meta["trace"])
    printer.show(ev.RecordSaved(record))
    printed = out.getvalue().splitlines()
    assert len(printed) == 1 + len(stages)
    for text in printed:
        assert all(ch >= " " for ch in text)
        json.loads(text)
    printer.show(ev.RecordSaved(record))  # saved again: its trace is not told twice
    assert len(out.getvalue().splitlines()) == 2 + len(stages)
