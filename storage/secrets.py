"""Keep credentials out of anything weaver-tui writes for people to share (exports).

Meta keys named like a credential are dropped, and string values that look like a key or a
bearer token are replaced, at any depth. Usage counters (``input_tokens``) are not secrets.
"""

from __future__ import annotations

import re
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
        return _SECRET_VALUE.sub(REDACTED, value)
    return value
