"""Fixture atoms for the validator's tests, read from ``atoms/``."""

from __future__ import annotations

from pathlib import Path

import pytest

ATOMS = Path(__file__).parent / "atoms"


def atom_file(name: str) -> str:
    """The text of ``atoms/<name>.py``."""
    return (ATOMS / f"{name}.py").read_text(encoding="utf-8")


@pytest.fixture
def good_atoms() -> str:
    return atom_file("good")
