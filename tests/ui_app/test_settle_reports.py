"""The pilot helper ``settle`` (tests/ui_app/conftest.py): when the app does not settle within
its bound, the failure names what kept it busy, so a rare one under load can be diagnosed
from its report alone."""

from __future__ import annotations

import asyncio

import pytest

from tests.ui_app.conftest import SIZE, chat, new_app, settle
from weaver_tui.core.services import Services


async def test_a_worker_that_never_ends_is_named_when_the_app_does_not_settle(
    services: Services,
) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)  # the launch's own workers are done
        never = asyncio.Event()
        worker = chat(pilot.app).run_worker(never.wait(), name="waits-forever", group="probe")
        with pytest.raises(AssertionError, match=r"waits-forever \(running\)"):
            await settle(pilot, bound_s=0.5)  # a bound on a worker that cannot end
        worker.cancel()
