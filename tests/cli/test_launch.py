"""``weaver-tui`` with no verb builds the Textual app from the same services and options.

The app's launch paints before it validates the settings (``weaver_tui.core.settings.early``):
these tests check that the options still reach it, that a bad setting found after the first
paint still ends as one line and exit code 2, and, in a real process, that the first frame
was drawn without pydantic, markdown-it or the agent stack imported.
"""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from weaver_tui import launch

REPO = Path(__file__).resolve().parents[2]


class _FakeApp:
    return_code = 0
    ran = False
    collector_on_while_running: bool | None = None

    def run(self) -> None:
        self.ran = True
        self.collector_on_while_running = gc.isenabled()


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    before = list(root.handlers)
    yield
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()


def test_no_verb_launches_the_app_with_the_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import weaver_tui.app

    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.chdir(tmp_path)
    seen: dict[str, Any] = {}
    app = _FakeApp()

    def fake_make_app(services: Any, **kwargs: Any) -> _FakeApp:
        seen.update(kwargs, services=services)
        return app

    monkeypatch.setattr(weaver_tui.app, "make_app", fake_make_app)

    code = launch.main(
        [
            "--provider",
            "offline",
            "--profile",
            "mediator",
            "--conversation",
            "c1",
            "--project-root",
            ".",
        ]
    )

    assert code == 0
    assert app.ran
    # the collector waits for the first frame (the real app turns it back on then) and is on
    # again whatever the app did
    assert app.collector_on_while_running is False
    assert gc.isenabled()
    assert seen["profile"] == "mediator"
    assert seen["conversation_id"] == "c1"
    assert seen["project_root"] == tmp_path.resolve()
    services = seen["services"]
    assert not services.settings_ready  # the app validates them after its first paint
    assert services.data_dir == tmp_path / "data"
    assert services.settings.provider.name == "offline"
    services.close_store()


def test_a_bad_setting_after_the_first_paint_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from weaver_tui.app import WeaverApp

    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("WEAVER_MAX_TOOL_ROUNDS", "many")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(WeaverApp, "run", lambda self: App.run(self, headless=True, size=(80, 24)))

    code = launch.main(["--provider", "offline"])

    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert "max_tool_rounds" in lines[0]
    assert "WEAVER_MAX_TOOL_ROUNDS" in lines[0]
    assert "Traceback" not in lines[0]


_FIRST_FRAME_CHILD = """
import sys
from textual.app import App
from weaver_tui import launch
from weaver_tui.app import WeaverApp

LATER = (
    "pydantic",
    "pydantic_settings",
    "markdown_it",
    "sqlite3",
    "langgraph",
    "langchain_core",
    "weaver_tui.core.cli.ask_verb",
    "weaver_tui.core.cli.event_printer",
)


def on_ready(self):
    print("AT-PAINT " + ",".join(name for name in LATER if name in sys.modules), flush=True)


def on_settings_validated(self, settings):
    # The settings are valid: the app would now publish them and warm up the agent stack,
    # which this check does not look at; it ends here instead.
    self.exit()


WeaverApp.run = lambda self: App.run(self, headless=True, size=(120, 40))
WeaverApp.on_ready = on_ready
WeaverApp._settings_validated = on_settings_validated
code = launch.main(["--provider", "offline"])
print("VALIDATED " + ",".join(name for name in LATER[:2] if name in sys.modules), flush=True)
sys.exit(code)
"""


def test_the_first_frame_needs_no_pydantic_markdown_store_or_agent_stack(tmp_path: Path) -> None:
    """The real command in a real process: what was imported when the first frame was done."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEAVER_")}
    env |= {
        "PYTHONPATH": str(REPO),
        "WEAVER_DATA_DIR": str(tmp_path / "data"),
        "WEAVER_CONFIG": str(tmp_path / "config.yaml"),
    }
    result = subprocess.run(
        [sys.executable, "-c", _FIRST_FRAME_CHILD],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines == ["AT-PAINT ", "VALIDATED pydantic,pydantic_settings"], result.stderr


def test_an_unknown_profile_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        launch.main(["ask", "--profile", "ide_helper", "hi"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
