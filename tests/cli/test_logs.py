"""JSON-lines log file: fields, trace ids, content redaction, and API keys never written."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.runtime.trace import trace
from weaver_tui.core.logs import LOG_FILE, redact_content, setup_logging

KEY = "sk-proj-abcdefghijklmnop1234"
CONFIGURED = "my-own-gateway-secret-77"


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Callable[..., Path]]:
    root = logging.getLogger()
    before, level = list(root.handlers), root.level

    def configure(**kwargs: Any) -> Path:
        return setup_logging(tmp_path, **kwargs)

    yield configure
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def _lines(path: Path) -> list[dict[str, Any]]:
    for handler in logging.getLogger().handlers:
        handler.flush()
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_lines_carry_fields_extras_and_the_turn_trace_id(log_file: Callable[..., Path]) -> None:
    path = log_file()
    log = logging.getLogger("agents.runtime.agent_runtime")
    with trace("trace-123"):
        log.info(
            "turn finished",
            extra={
                "conversation_id": "c1",
                "message_id": "m1",
                "latency_ms": 12.5,
                "input_tokens": 3,
            },
        )
    log.warning("outside a turn")

    first, second = _lines(path)
    assert path.name == LOG_FILE
    assert first["level"] == "INFO"
    assert first["module"] == "agents.runtime.agent_runtime"
    assert first["msg"] == "turn finished"
    assert first["ts"].endswith("+00:00")
    assert first["trace_id"] == "trace-123"
    assert (
        first["conversation_id"],
        first["message_id"],
        first["latency_ms"],
        first["input_tokens"],
    ) == (
        "c1",
        "m1",
        12.5,
        3,
    )
    assert "trace_id" not in second


def test_content_is_full_unless_redaction_is_on(
    log_file: Callable[..., Path], tmp_path: Path
) -> None:
    text = "My salary is 4200 and my partner does not know."
    path = log_file()
    logging.getLogger("x").info("user message", extra={"content": text})
    assert _lines(path)[-1]["content"] == text

    log_file(redact_content=True, redact_chars=8)
    logging.getLogger("x").info("user message", extra={"content": text})
    redacted = _lines(path)[-1]["content"]
    assert redacted.startswith("My salar")
    assert "4200" not in redacted
    assert hashlib.sha256(text.encode()).hexdigest()[:16] in redacted
    assert redacted == redact_content(text, 8)


def test_api_keys_are_scrubbed_from_every_part_of_a_line(log_file: Callable[..., Path]) -> None:
    path = log_file(secrets=[CONFIGURED])
    log = logging.getLogger("agents.providers")
    log.info(
        "calling with %s",
        KEY,
        extra={"header": f"Bearer {CONFIGURED}", "url": f"x?key={CONFIGURED}"},
    )
    try:
        raise RuntimeError(f"auth failed for {KEY}")
    except RuntimeError:
        log.exception("provider error")

    text = path.read_text(encoding="utf-8")
    assert KEY not in text
    assert CONFIGURED not in text
    assert text.count("[REDACTED]") >= 4
    assert any("exc" in line for line in _lines(path))
