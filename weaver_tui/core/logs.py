"""JSON-lines logging to ``<data_dir>/weaver.log`` , with redaction and key scrubbing.

Every line: ``ts``, ``level``, ``module``, ``msg``, the turn's ``trace_id`` (from
:data:`agents.runtime.trace.trace_id_var` unless given), and whatever ``extra={...}`` the call passed
(conversation_id, message_id, profile, provider, model, latency_ms, token counts ...).
Library code only does ``logging.getLogger(__name__).info("...", extra={...})``.

Content fields (``content``, ``text``, ``output``, ``prompt``) are logged in full unless
redaction is on; then they become their first N characters plus a sha256, so lines can still
be correlated without the words. Anything that looks like an API key (``sk-...``, a bearer
token, or the configured key itself) is scrubbed from every line, whatever logged it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import traceback
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents.runtime.trace import trace_id_var
from storage.printable import printable_json
from storage.secrets import credential_forms

LOG_FILE = "weaver.log"
CONTENT_FIELDS = frozenset({"content", "text", "output", "prompt"})
NOISY_LOGGERS = (
    "httpx",
    "httpx2",
    "httpcore",
    "openai",
    "aiosqlite",
    "asyncio",
    "urllib3",
    "markdown_it",
)
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
}
_KEY_PATTERN = re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-]{8,}|(?i:bearer)\s+[A-Za-z0-9._\-]{8,}")
_HANDLER_NAME = "weaver-json-file"


class SecretScrubber:
    """Replaces key-like strings and the configured secrets, in every form they may be
    written in (:func:`storage.secrets.credential_forms`), with ``[REDACTED]``."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        forms = {form for s in secrets if s for form in credential_forms(s, shortest=4)}
        self.secrets = sorted(forms, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        """``text`` scrubbed. The key pattern is searched only where it can match (a ``k-``,
        or ``bearer`` in any case): plain substring tests, a tenth of the pattern's time on a
        long reply's log line. The guarantee, tested on generated texts: the result is the
        pattern's own, for every text."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, "[REDACTED]")
        if "k-" not in text and "bearer" not in text.lower():
            return text
        return _KEY_PATTERN.sub("[REDACTED]", text)


def redact_content(value: str, keep: int) -> str:
    """``value`` as its first ``keep`` characters plus length and sha256."""
    digest = hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:16]
    head = value[:keep]
    return (
        f"{head}… [{len(value)} chars, sha256:{digest}]"
        if len(value) > keep
        else (f"{head} [sha256:{digest}]")
    )


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per record; content redaction and secret scrubbing applied last."""

    def __init__(
        self,
        *,
        redact: bool = False,
        redact_chars: int = 32,
        scrubber: SecretScrubber | None = None,
    ) -> None:
        super().__init__()
        self.redact = redact
        self.redact_chars = redact_chars
        self.scrubber = scrubber or SecretScrubber()

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "module": record.name,
            "msg": record.getMessage(),
        }
        trace_id = trace_id_var.get()
        if trace_id:
            payload["trace_id"] = trace_id
        for key, value in vars(record).items():
            if key in _STANDARD or key.startswith("_"):
                continue
            if self.redact and key in CONTENT_FIELDS and isinstance(value, str):
                value = redact_content(value, self.redact_chars)
            payload[key] = value
        if record.exc_info:
            payload["exc"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        line = json.dumps(payload, ensure_ascii=False, default=str)
        # a log is read with ``tail``: nothing quoted in it drives the terminal or fails to encode
        return printable_json(self.scrubber(line))


class ScrubFilter(logging.Filter):
    """Scrubs the message and string extras of every record before any handler sees it."""

    def __init__(self, scrubber: SecretScrubber) -> None:
        super().__init__()
        self.scrubber = scrubber

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (a bad format string must not lose the line)
            message = str(record.msg)
        record.msg, record.args = self.scrubber(message), None
        for key, value in list(vars(record).items()):
            if key not in _STANDARD and isinstance(value, str):
                setattr(record, key, self.scrubber(value))
        return True


def setup_logging(
    data_dir: Path,
    *,
    level: int | str = logging.INFO,
    redact_content: bool = False,
    redact_chars: int = 32,
    secrets: Iterable[str] = (),
) -> Path:
    """Send every logger's records to ``data_dir/weaver.log`` as JSON lines; returns the path.

    Idempotent: a second call replaces the handler (e.g. after the settings change).
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / LOG_FILE
    scrubber = SecretScrubber(secrets)
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.name = _HANDLER_NAME
    handler.setFormatter(
        JsonLinesFormatter(redact=redact_content, redact_chars=redact_chars, scrubber=scrubber)
    )
    handler.addFilter(ScrubFilter(scrubber))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.name == _HANDLER_NAME]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(level)
    for name in NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    return path
