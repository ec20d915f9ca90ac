"""Attaching files in the app: ``@path`` in a message attaches that file (Tab completes the
path), "Attach file" picks one with completion as you type; the message shows each file
folded as its name and size, and the model gets the text. A file too big is refused and the
draft kept."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.attach_file import AttachFileScreen


def project(root: Path) -> Path:
    (root / "logs").mkdir(parents=True)
    (root / "logs" / "build.log").write_text("error: linker failed\n", encoding="utf-8")
    return root


async def test_an_at_mention_completed_with_tab_attaches_the_file(
    remote_services: Services, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    root = project(tmp_path / "project")
    fake_openai.script(Reply("The linker failed."))
    async with new_app(remote_services, profile="ide-helper", project_root=root).run_test(
        size=SIZE
    ) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        composer = screen.composer
        composer.focus()
        for key in "why did @lo":
            await pilot.press(key if key != " " else "space")
        await pilot.press("tab")
        assert composer.text == "why did @logs/"
        await pilot.press("b", "tab")
        assert composer.text == "why did @logs/build.log"
        await pilot.press("enter")
        await settle(pilot)

        user = next(item for item in screen.messages.items if item.role == "user")
        assert "📎 `build.log · 21 B`" in user.content
        content = fake_openai.chat_bodies[-1]["messages"][-1]["content"]
        assert any("linker failed" in part.get("text", "") for part in content)


async def test_attach_file_picks_a_file_for_the_next_message(
    services: Services, tmp_path: Path
) -> None:
    root = project(tmp_path / "project")
    async with new_app(services, profile="ide-helper", project_root=root).run_test(
        size=SIZE
    ) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        await palette_run(pilot, "Attach file")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, AttachFileScreen))
        dialog = pilot.app.screen
        await pilot.press(*"lo")
        await pilot.pause()
        await pilot.press("tab")  # the dropdown's first entry: the logs/ folder
        await pilot.pause()
        assert dialog.query_one(Input).value == "logs/"
        await pilot.press(*"build.log")
        for _ in range(3):  # Enter takes a shown completion first, then attaches
            if pilot.app.screen is not dialog:
                break
            await pilot.press("enter")
            await pilot.pause()
        await wait_until(pilot, lambda: pilot.app.screen is not dialog)
        assert "📎 build.log" in screen.composer.hint
        await send(pilot, "what failed?")
        conversation = screen.state.conversation
        assert conversation is not None
        user = services.store.list_messages(conversation.id)[0]
        assert user.meta["attachments"][0]["name"] == "build.log"
        assert screen.composer.hint == ""


async def test_a_file_over_the_limit_is_refused_and_the_draft_kept(
    services: Services, tmp_path: Path
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "big.log").write_text("x" * 5000, encoding="utf-8")
    async with new_app(services, profile="ide-helper", project_root=root).run_test(
        size=SIZE
    ) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        screen.composer.max_bytes = 1000
        await send(pilot, "look at @big.log")
        assert screen.composer.text == "look at @big.log"
        assert screen.state.conversation is None
        assert any("over the" in n.message for n in pilot.app._notifications)
