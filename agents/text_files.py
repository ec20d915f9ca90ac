"""Small text helpers shared by tools and profiles: telling text from binary the way git does,
and fencing a block of text for Markdown whatever it holds."""

from __future__ import annotations

import re

BINARY_SNIFF_BYTES = 8192
"""How much of a file's start is looked at."""


def is_binary(sample: bytes) -> bool:
    """Git's rule of thumb: a NUL byte near the start means binary."""
    return b"\0" in sample[:BINARY_SNIFF_BYTES]


def fenced(body: str, language: str = "") -> str:
    """``body`` in a Markdown fence longer than any backtick run inside it (so it cannot be
    closed early)."""
    longest = max((len(run) for run in re.findall(r"`{3,}", body)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{body.rstrip()}\n{fence}"
