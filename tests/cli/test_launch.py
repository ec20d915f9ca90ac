"""``weaver-tui`` with no verb builds the Textual app from the same services and options."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from weaver_tui import cli


class _FakeApp:
    return_code = 0
    ran = False

    def run(self) -> None:
        self.ran = True


@pytest.fixture(autouse=True)
def _restore_logging():
    root = logging.getLogger()
    before = list(root.handlers)
    yield
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
            handler.close()


def test_no_verb_launches_the_app_with_the_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import weaver_tui.app

    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.chdir(tmp_path)
    seen: dict[str, Any] = {}
    app = _FakeApp()

    def fake_make_app(services, **kwargs):
        seen.update(kwargs, services=services)
        return app

    monkeypatch.setattr(weaver_tui.app, "make_app", fake_make_app)

    code = cli.main(
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

    assert code == 0 and app.ran
    assert seen["profile"] == "mediator" and seen["conversation_id"] == "c1"
    assert seen["project_root"] == tmp_path.resolve()
    assert seen["services"].settings.provider == "offline"
    assert seen["services"].data_dir == tmp_path / "data"


def test_an_unknown_profile_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["ask", "--profile", "ide_helper", "hi"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
