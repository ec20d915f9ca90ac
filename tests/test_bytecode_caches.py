"""The suite and the processes it starts keep bytecode caches, whatever the shell says."""

from __future__ import annotations

import os
import subprocess
import sys


def test_the_suite_and_its_children_write_bytecode_caches() -> None:
    assert not sys.dont_write_bytecode
    assert "PYTHONDONTWRITEBYTECODE" not in os.environ
    child = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.dont_write_bytecode)"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert child.stdout.strip() == "False"
