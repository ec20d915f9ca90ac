"""Save the README screenshot: the app drawing itself as SVG (Textual's ``save_screenshot``).

Runs headless on the offline model in a throwaway data folder, asks the ide-helper about this
repository so a streamed reply, the tool pane and the tree are on screen, then writes
``docs/screenshot.svg``. Usage: ``.venv/bin/python scripts/screenshot.py``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WEAVER_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["WEAVER_CONFIG"] = str(Path(tmp) / "config.yaml")
        from weaver_tui.app import make_app
        from weaver_tui.core.services import Services
        from weaver_tui.core.settings.config import load_settings

        services = Services(
            load_settings(env_file=None, provider="offline"), configure_logging=False
        )
        app = make_app(services, profile="ide-helper", project_root=ROOT)
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(100):
                if getattr(app.screen_stack[0], "composer_ready", False):
                    break
                await pilot.pause(0.05)
            screen = app.screen_stack[0]
            for text in ("What is in storage/models.py?",):
                screen.composer.focus()  # type: ignore[attr-defined]
                screen.composer.load_text(text)  # type: ignore[attr-defined]
                await pilot.press("enter")
                await app.workers.wait_for_complete()
                await pilot.pause(0.3)
            out = ROOT / "docs"
            out.mkdir(exist_ok=True)
            app.save_screenshot(filename="screenshot.svg", path=str(out))
        services.close_store()
    print(f"wrote {out / 'screenshot.svg'}")


if __name__ == "__main__":
    asyncio.run(main())
