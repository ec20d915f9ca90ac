"""Keep credentials out of anything weaver-tui stores, shows, logs or exports.

Meta keys named like a credential are dropped, and string values that look like a key or a
bearer token are replaced, at any depth. Usage counters (``input_tokens``) are not secrets.

The keys this process actually uses are remembered (:func:`remember_secret`, called when a
provider client is built and when settings are accepted), so a key of any shape is removed
too: a provider may echo the key it was sent in an error body, and that text must not reach
the store, the checkpoints, the screen or an export.

A key is removed in every form a server, a proxy or a library renders it in, not only as it
was configured (:func:`secret_forms`): percent-encoded (a query string, a URL quoted in an
error), JSON- or Python-escaped (an error body quoted whole, a log line), and base64 (an
``Authorization: Basic`` or ``Bearer`` header echoed back), at any alignment in the encoded
text.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, quote_plus

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
_longest_first: tuple[str, ...] = ()
_known_lock = threading.Lock()


_MIN_ENCODED_CHARS = 8
"""The shortest base64 piece of a key that counts as the key (shorter ones match words)."""


def secret_forms(secret: str) -> set[str]:
    """``secret`` and every rendering of it that would show it to a reader: percent-encoded
    (upper- and lower-case hex, ``+`` for a space), JSON- and Python-escaped, and the part of
    its base64 (standard and URL-safe) that any base64 text holding it contains, whatever
    the bytes before it (``Basic user:key``, ``Bearer key``)."""
    forms = {secret, quote(secret, safe=""), quote_plus(secret, safe="")}
    forms |= {re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), form) for form in forms}
    escaped = json.dumps(secret)[1:-1]
    forms |= {escaped, escaped.replace("/", "\\/"), json.dumps(secret, ensure_ascii=False)[1:-1]}
    forms |= {repr(secret)[1:-1], repr(secret.encode("utf-8", "surrogatepass"))[2:-1]}
    raw = secret.encode("utf-8", "surrogatepass")
    for before in range(3):  # the key's first byte at each of the three places in a group
        encoded = base64.b64encode(b"\0" * before + raw).decode("ascii")
        whole_groups = encoded[(0, 2, 3)[before] : (before + len(raw)) // 3 * 4]
        if len(whole_groups) >= _MIN_ENCODED_CHARS:
            forms |= {whole_groups, whole_groups.replace("+", "-").replace("/", "_")}
    return {form for form in forms if form}


def remember_secret(*values: str | None) -> None:
    """Scrub these values (API keys in use), in each of their :func:`secret_forms`, from every
    text :func:`scrub_text` sees."""
    global _longest_first
    with _known_lock:
        for value in values:
            _known.update(credential_forms(value or ""))
        _longest_first = tuple(sorted(_known, key=len, reverse=True))


_SCHEME = re.compile(r"(?i)^\s*(bearer|token|basic|digest|apikey|api-key)\s+(\S+)\s*$")


def credential_forms(value: str, shortest: int = _MIN_SECRET_CHARS) -> set[str]:
    """Every :func:`secret_forms` of ``value`` and of what it carries (see below), for each
    part at least ``shortest`` characters long."""
    return {
        form
        for part in _credential_parts(value)
        if len(part) >= shortest
        for form in secret_forms(part)
    }


def _credential_parts(value: str) -> list[str]:
    """``value`` and what it carries: a header value's credential without its scheme
    (``Bearer abc`` → ``abc``), and a ``Basic`` one decoded (``user:pass``) and its password,
    each a secret a server may echo on its own."""
    parts = [value]
    match = _SCHEME.match(value)
    if match is None:
        return parts
    scheme, credential = match.group(1).lower(), match.group(2)
    parts.append(credential)
    if scheme == "basic":
        try:
            decoded = base64.b64decode(credential, validate=True).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return parts
        parts += [decoded, decoded.partition(":")[2]]
    return parts


def known_secret_forms() -> tuple[str, ...]:
    """Every form of every remembered key, longest first (the same tuple until one is added)."""
    return _longest_first


def scrub_text(text: str) -> str:
    """``text`` without the remembered keys or anything shaped like a key or bearer token."""
    return _SECRET_VALUE.sub(REDACTED, without_known_secrets(text))


def without_known_secrets(text: str) -> str:
    """``text`` without the remembered keys (in any of their forms); other text, even text
    shaped like a key (an example in a reply, a test fixture in a file), is left as it is."""
    for secret in _longest_first:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


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
