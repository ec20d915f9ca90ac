"""Loaded before every other conftest: the suite keeps Python's bytecode caches, and its
generated cases are the same in every run unless asked otherwise.

A shell with ``PYTHONDONTWRITEBYTECODE`` set would have every process of the suite (each
pytest-xdist worker, each ``python -m weaver_tui`` child, each server a test starts) compile
the same sources again, and pytest rewrite every test module again: several CPU seconds per
worker and a fraction of a second per child, on a machine the suite keeps busy. The caches go
to the ``__pycache__`` folders git ignores; a tree Python cannot write to just goes uncached.

Hypothesis draws its cases from a seed fixed per test (``derandomize``), so a run of the suite
is repeatable: a red run is red again on the same commit, and a green one stays green.
``WEAVER_HYPOTHESIS=explore`` draws new cases in every run (and keeps the failing ones in
``.hypothesis/``) to look for members of a class the fixed cases miss; a failure found that way
becomes a test of its own.
"""

from __future__ import annotations

import os
import sys

from hypothesis import settings

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the children the tests start inherit this

settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("WEAVER_HYPOTHESIS", "repeatable"))
