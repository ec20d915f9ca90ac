"""The runtime and storage layers never import Textual, not even at run time.

``lint-imports`` (contracts in pyproject.toml) checks the imports written in the code; this
checks what importing the layers really loads, dynamic imports included."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["storage", "agents", "agents.runtime.events", "storage.models"])
def test_layer_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, 'textual imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
