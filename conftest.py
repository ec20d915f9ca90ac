"""Loaded before every other conftest: the suite keeps Python's bytecode caches.

A shell with ``PYTHONDONTWRITEBYTECODE`` set would have every process of the suite (each
pytest-xdist worker, each ``python -m weaver_tui`` child, each server a test starts) compile
the same sources again, and pytest rewrite every test module again: several CPU seconds per
worker and a fraction of a second per child, on a machine the suite keeps busy. The caches go
to the ``__pycache__`` folders git ignores; a tree Python cannot write to just goes uncached.
"""

from __future__ import annotations

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the children the tests start inherit this
