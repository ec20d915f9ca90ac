"""Keep credentials out of anything weaver-tui stores, shows, logs or exports.

Meta keys named like a credential are dropped, and string values that look like a key or a
bearer token are replaced, at any depth. Usage counters (``input_tokens``) are not secrets.

The keys this process actually uses are remembered (:func:`remember_secret`, called when a
provider client is built and when settings are accepted), so a key of any shape is removed
too: a provider may echo the key it was sent in an error body, and that text must not reach
the store, the checkpoints, the screen or an export.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"

_SECRET_NAMES = {
    "apikey", "xapikey", "authorization", "proxyauthorization", "auth", "password", "passwd",
    "secret", "clientsecret", "secretkey", "privatekey", "token", "accesstoken",
    "refreshtoken", "idtoken", "sessiontoken", "bearer", "cookie", "setcookie",
}  # fmt: skip
_SECRET_SUFFIXES = ("apikey", "secret", "password", "accesstoken", "privatekey")
_SECRET_VALUE = re.compile(
    r"(?:\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{16,}"
    r"|\bBearer\s+[A-Za-z0-9._~+/\-]{16,}=*"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}"
    r"|\bxox[abprs]-[A-Za-z0-9\-]{10,})"
)


_MIN_SECRET_CHARS = 6
_known: set[str] = set()
_known_lock = threading.Lock()


def remember_secret(*values: str | None) -> None:
    """Scrub these values (API keys in use) from every text :func:`scrub_text` sees."""
    with _known_lock:
        _known.update(v for v in values if v and len(v) >= _MIN_SECRET_CHARS)


def scrub_text(text: str) -> str:
    """``text`` without the remembered keys or anything shaped like a key or bearer token."""
    with _known_lock:
        known = sorted(_known, key=len, reverse=True)
    for secret in known:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return _SECRET_VALUE.sub(REDACTED, text)


def is_secret_key(key: str) -> bool:
    """Whether a meta key names a credential (``api_key``, ``Authorization``, ``x-api-key``)."""
    normal = re.sub(r"[^a-z0-9]", "", key.lower())
    return normal in _SECRET_NAMES or normal.endswith(_SECRET_SUFFIXES)


def scrub(value: Any) -> Any:
    """A copy of ``value`` with credential keys dropped and key-like strings redacted."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if not is_secret_key(str(k))}
    if isinstance(value, list):
        return [scrub(item) for item in value]
    if isinstance(value, str):
        return scrub_text(value)
    return value


def without_values(text: str, values: Iterable[str], *, shortest: int = 4) -> str:
    """``text`` with each of ``values`` (one server's tokens, say) replaced, also where Python
    quoted it (an HTTP library's message about a header it refuses quotes the bytes); values
    shorter than ``shortest`` are left alone, as they would blot out ordinary words."""
    for value in sorted(values, key=len, reverse=True):
        for shown in {value, value.strip(), repr(value)[1:-1], repr(value.encode())[2:-1]}:
            if len(shown) >= shortest:
                text = text.replace(shown, REDACTED)
    return text
