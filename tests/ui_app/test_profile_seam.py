"""A profile is one folder plus one registry line: a throwaway profile registered in the tests
runs through the app, which shows it from its traits alone (panel kind, badges, stage names),
and the app never tests a profile's name."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

import agents.profile_registry as registry
from agents.profile import ProfileTraits
from storage.models import MessageRecord
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from weaver_tui.core.chat_state.rows import build_item
from weaver_tui.core.services import Services
from weaver_tui.widgets.project_root_label import ProjectRootLabel
from weaver_tui.widgets.tool_pane import ToolRow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def throwaway(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register ``tests/ui_app/throwaway_profile`` as the registry registers every profile."""
    packages = {**registry.PROFILE_PACKAGES, "throwaway": "tests.ui_app.throwaway_profile"}
    monkeypatch.setattr(registry, "PROFILE_PACKAGES", packages)
    monkeypatch.setattr(registry, "PROFILE_NAMES", tuple(packages))
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry, "_traits", {})
    return "throwaway"


async def test_a_registered_throwaway_profile_runs_through_the_app(
    services: Services, throwaway: str, weaver_env: Path
) -> None:
    async with new_app(services, profile=throwaway).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        assert screen.header.profile == "THROWAWAY"  # its badge, not its name
        assert screen.query_one(ProjectRootLabel) is not None  # panel kind "project"
        await send(pilot, "What does this project do?")
        conversation = screen.state.conversation
        assert conversation is not None
        assert conversation.profile == throwaway
        assert conversation.meta["project_root"] == str(await asyncio.to_thread(weaver_env.resolve))
        reply = screen.messages.items[-1]
        assert reply.role == "assistant"
        assert reply.status == "complete"
        assert reply.content
        assert reply.badge == "checked by offline"  # its reply badge, from the record meta
        stage = next(row for row in screen.query(ToolRow) if row.key == "stage:check")
        assert stage.tool_name == "Checking: the question"  # its stage name
        assert not screen.panels.check_action("cycle_speaker", ())  # no participants declared


def test_reply_blocks_draw_what_the_traits_declare() -> None:
    record = MessageRecord(
        id="r1",
        conversation_id="c1",
        role="assistant",
        content="RRF fuses rankings.",
        parent_id=None,
        depth=0,
        version=1,
        created_at=datetime.now(UTC),
        meta={
            "sources": [{"title": "Cormack 2009", "where": "notes/rrf.md:3"}],
            "artifacts": [{"name": "atom.py", "language": "python", "text": "x = 1"}],
        },
    )
    plain = build_item(record, 1, 1, ProfileTraits())
    assert plain.content == "RRF fuses rankings."
    drawn = build_item(record, 1, 1, ProfileTraits(reply_blocks=("sources", "artifacts", "odd")))
    assert drawn.content.startswith("RRF fuses rankings.\n\n**Sources**")
    assert "1. Cormack 2009 — `notes/rrf.md:3`" in drawn.content
    assert "**atom.py**\n\n```python\nx = 1\n```" in drawn.content


def test_the_app_never_tests_a_profile_name() -> None:
    names = "|".join(map(re.escape, registry.PROFILE_NAMES))
    literal = re.compile(rf"""["'](?:{names})["']""")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "weaver_tui").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert found == []


async def test_the_chat_screen_is_the_stage_the_demo_plays_on(services: Services) -> None:
    from weaver_tui.screens.chat.demo_player import DemoStage

    members = {
        name for name in [*DemoStage.__annotations__, *vars(DemoStage)] if not name.startswith("_")
    }
    async with new_app(services).run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        assert sorted(name for name in members if not hasattr(screen, name)) == []
