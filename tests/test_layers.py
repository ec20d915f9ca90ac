"""The runtime and storage layers never import Textual (ARCHITECTURE.md: one direction of imports)."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["storage", "agents", "agents.events", "storage.models"])
def test_layer_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, 'textual imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
