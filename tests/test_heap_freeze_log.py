"""A freeze costs no walk over the heap unless its log line is wanted: counting the frozen
objects walks all of them (~20 ms over the app's heap, on the event loop at the end of the
warm-up), so it is done only when debug logging is on."""

from __future__ import annotations

import gc
import logging

import pytest

from weaver_tui.core import heap


@pytest.mark.parametrize(("level", "counted"), [(logging.INFO, False), (logging.DEBUG, True)])
def test_the_frozen_objects_are_counted_only_for_a_debug_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, level: int, counted: bool
) -> None:
    counts: list[int] = []

    def count() -> int:
        counts.append(1)
        return 0

    monkeypatch.setattr(gc, "get_freeze_count", count)
    caplog.set_level(level, logger=heap.__name__)
    heap.freeze_long_lived("a test's freeze")
    assert bool(counts) is counted
    assert ("heap frozen" in caplog.text) is counted
