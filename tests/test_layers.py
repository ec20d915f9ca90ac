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


_EACH_ALONE = """
import importlib, pathlib, sys
roots = ("agents", "storage", "weaver_tui")
names = []
for root in roots:
    for path in sorted(pathlib.Path(root).rglob("*.py")):
        parts = path.with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
for name in names:  # the libraries, loaded once
    importlib.import_module(name)
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m.partition(".")[0] in roots]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed.append(f"{name}: {exc}")
print(len(names))
assert not failed, "\\n".join(failed)
"""


def test_every_module_imports_first() -> None:
    """Whatever module a process imports first (a test file, an entry point, a LangGraph
    Studio graph), it loads: no import cycle among the project's modules that only an import
    order hides. Each module is imported with every project module unloaded before it."""
    done = subprocess.run(
        [sys.executable, "-c", _EACH_ALONE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout.split()[-1]) > 300  # every module was tried
