"""Bytecode written once, shared out between the pytest-xdist workers, before they collect.

A fresh clone has no bytecode for the app's packages nor for the tests. Every xdist worker
starts at the same moment and imports the same modules, so each one compiles the app and
rewrites the asserts of every test module itself (pytest keeps rewritten tests in its own
``*-pytest-*.pyc`` files): about five CPU seconds per worker, repeated by each. Instead each
worker first writes its share of the caches (every n-th file), exactly as pytest's import hook
would (the same rewrite, the same cache file and header); when it collects, the others have
written theirs. Files whose cache is already fresh are only checked, so a second run costs a
few stat calls. Two processes writing the same cache is harmless: each file is replaced whole.
"""

from __future__ import annotations

import compileall
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.assertion import rewrite
from _pytest.pathlib import fnmatch_ex

APP_PACKAGES = ("agents", "storage", "weaver_tui", "themes", "tests/support")
"""Plain (not rewritten) modules the tests import, relative to the root of the project."""


def rewritten_modules(config: pytest.Config, roots: list[Path]) -> Iterator[Path]:
    """The files under ``roots`` that pytest rewrites on import: conftests and test modules."""
    patterns = config.getini("python_files")
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for path in files:
            if path.name == "conftest.py" or any(fnmatch_ex(p, path) for p in patterns):
                yield path


def rewrite_tests(config: pytest.Config, sources: list[Path]) -> list[Path]:
    """Write the rewritten bytecode of each test module in ``sources`` whose cache is stale;
    the modules written."""
    state = config.stash[rewrite.assertstate_key]
    written = []
    for source in sources:
        cache_dir = rewrite.get_cache_dir(source)
        pyc = cache_dir / (source.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(source, pyc) is not None or not rewrite.try_makedirs(cache_dir):
            continue
        try:
            source_stat, code = rewrite._rewrite_test(source, config)
        except SyntaxError:
            continue  # pytest reports it when it imports the module
        if rewrite._write_pyc(state, code, source_stat, pyc):
            written.append(source)
    return written


def app_modules(root: Path) -> list[Path]:
    """The source files of the app's packages."""
    return [path for package in APP_PACKAGES for path in sorted((root / package).rglob("*.py"))]


def compile_app(sources: list[Path]) -> None:
    """Compile each of ``sources`` whose bytecode is missing or stale."""
    for source in sources:
        compileall.compile_file(source, quiet=1)


def collected_roots(config: pytest.Config) -> list[Path]:
    """The folders and files this run collects from (its arguments, without test names)."""
    return [Path(config.invocation_params.dir, arg.split("::")[0]) for arg in config.args]


def share(paths: list[Path], worker: int, workers: int) -> list[Path]:
    """The worker's share of ``paths``: every ``workers``-th one from its own place."""
    return paths[worker::workers]


def for_workers(config: pytest.Config) -> None:
    """In an xdist worker, write this worker's share of the bytecode all workers are about to
    need; elsewhere nothing (a single process compiles as it imports anyway)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or config.option.assertmode != "rewrite":
        return
    worker = int(workerinput["workerid"].removeprefix("gw"))
    workers = int(workerinput["workercount"])
    compile_app(share(app_modules(config.rootpath), worker, workers))
    tests = list(rewritten_modules(config, collected_roots(config)))
    rewrite_tests(config, share(tests, worker, workers))
