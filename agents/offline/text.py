"""How the offline model cuts a reply into stream tokens and counts them."""

from __future__ import annotations

import math
import re

_TOKEN = re.compile(r"\s*(?:\w+|[^\w\s]+)|\s+")


def split_tokens(text: str) -> list[str]:
    """Word-ish stream tokens: each word or punctuation run with the whitespace before it.

    ``"".join(split_tokens(t)) == t`` for every ``t``, so a streamed reply reassembles exactly.
    """
    return _TOKEN.findall(text)


def approx_tokens(text: str) -> int:
    """A rough token count (about four characters per token), never below one for text."""
    return math.ceil(len(text) / 4) if text else 0


def fenced(body: str, language: str = "") -> str:
    """A fenced Markdown block whose fence is longer than any backtick run in ``body``."""
    longest = run = 0
    for char in body:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{body.rstrip(chr(10))}\n{fence}"
