"""``ask --json``: one JSON object per event on stdout, stable keys, the records' ids; with
``--quiet`` only the result object. Whatever the message holds, every line is one JSON object
with no control character in it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def _lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_every_event_is_a_line_with_the_records_ids(weaver: Weaver, tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("The answer is 42.\n", encoding="utf-8")
    done = weaver(
        "--provider", "offline", "--profile", "ide-helper", "ask", "--json", "read notes.md"
    )
    assert done.returncode == 0, done.stderr
    lines = _lines(done.stdout)
    kinds = [line["event"] for line in lines]
    assert kinds[0] == "stored"
    assert kinds[-1] == "finished"
    assert "tool_start" in kinds
    assert "tool_end" in kinds
    stored, finished = lines[0], lines[-1]
    message = stored["message"]
    assert isinstance(message, dict)
    assert message["role"] == "user"
    assert finished["status"] == "complete"
    tool_end = next(line for line in lines if line["event"] == "tool_end")
    assert tool_end["name"] == "read_file"
    assert "42" in str(tool_end["output"])
    assert finished["leaf_id"] in finished["record_ids"]  # type: ignore[operator]


def test_quiet_prints_only_the_result(weaver: Weaver) -> None:
    done = weaver(
        "--provider", "offline", "--profile", "ide-helper", "ask", "--json", "--quiet", "hello"
    )
    assert done.returncode == 0, done.stderr
    [result] = _lines(done.stdout)
    assert result["event"] == "result"
    assert result["status"] == "complete"
    assert result["reply"]
    assert result["conversation_id"]
    assert result["user_message_id"]
    assert result["reply_id"]
    assert result["error"] is None


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(min_size=1, max_size=60).filter(lambda t: t.strip() and "\x00" not in t))
def test_any_message_gives_lines_of_json_without_control_characters(
    weaver: Weaver, text: str
) -> None:
    done = weaver("--provider", "offline", "--profile", "mediator", "ask", "--json", text)
    for line in done.stdout.splitlines():
        assert all(ch >= " " for ch in line), repr(line)
        assert isinstance(json.loads(line), dict)
