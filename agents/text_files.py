"""Telling text from binary the way git does, for the tools that read and patch files."""

from __future__ import annotations

BINARY_SNIFF_BYTES = 8192
"""How much of a file's start is looked at."""


def is_binary(sample: bytes) -> bool:
    """Git's rule of thumb: a NUL byte near the start means binary."""
    return b"\0" in sample[:BINARY_SNIFF_BYTES]
