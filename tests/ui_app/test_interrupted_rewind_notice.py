"""The app's start settles a file rewind a killed process left half done before the chat
opens, and tells the user in one notice (a real child process killed after its first rename;
the files and the records agree once the app is up)."""

from __future__ import annotations

from pathlib import Path

from agents.patch_review.rewind import REVERTED
from tests.support.killed_rewinds import Change, expected, listing, run_child, setup, statuses
from tests.ui_app.conftest import SIZE, build_services, new_app, wait_until


async def test_the_app_start_finishes_a_killed_rewind_and_says_so(weaver_env: Path) -> None:
    files = [Change("a.txt", "one", "two"), Change("b.txt", "three", "four")]
    root, db, leaf, records = setup(weaver_env, files)
    assert run_child(root, db, leaf, 2).returncode == -9  # after the first rename
    services = build_services(provider="offline")
    try:
        async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
            app = pilot.app

            def told() -> list[str]:
                return [
                    str(n.message)
                    for n in app._notifications
                    if "a.txt" in str(n.message) and "b.txt" in str(n.message)
                ]

            await wait_until(pilot, lambda: bool(told()))
            assert len(told()) == 1
        assert listing(root) == expected(files, reverted=True)
        assert statuses(db, records) == {REVERTED}
    finally:
        services.close_store()
