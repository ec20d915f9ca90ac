"""Keys remembered for one test only (``storage.secrets`` keeps them for the whole process), and
an independent check that a text lets no one read a key: not as it is, not percent-encoded,
not JSON- or Python-escaped, and not by decoding any base64 run in it."""

from __future__ import annotations

import base64
import binascii
import json
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import unquote, unquote_plus

from storage import secrets

_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{8,}")


@contextmanager
def remembered(*keys: str) -> Iterator[None]:
    """``keys`` remembered as this process's keys for the ``with`` block, then forgotten."""
    saved = set(secrets._known), secrets._longest_first
    try:
        secrets.remember_secret(*keys)
        yield
    finally:
        secrets._known.clear()
        secrets._known.update(saved[0])
        secrets._longest_first = saved[1]


def readable_key(text: str, key: str) -> str | None:
    """How ``text`` shows ``key`` to a reader (or None when it does not)."""
    if key in text:
        return "as it is"
    if key in unquote(text) or key in unquote_plus(text):
        return "percent-encoded"
    if key in text.replace("\\/", "/") or key in _unescaped(text):
        return "escaped"
    raw = key.encode("utf-8", "surrogatepass")
    for run in _BASE64_RUN.findall(text):
        for start in range(4):
            piece = run[start:]
            piece = piece[: len(piece) // 4 * 4]
            for decode in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    if raw in decode(piece):
                        return "in base64"
                except (binascii.Error, ValueError):
                    continue
    return None


def _unescaped(text: str) -> str:
    try:
        return str(json.loads(f'"{text}"'))
    except ValueError:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "\\P" is not an escape
            return text.encode("utf-8", "surrogatepass").decode("unicode_escape", "replace")
