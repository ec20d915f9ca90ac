"""atom-developer in the app: the loop's stages show in the tool pane as they run, the reply
shows the checked code, spec and report, and Ctrl+S saves the artifacts under the project root
after a confirmation that names every file (a file already there is said to be replaced)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.atom_developer.graph_support import ERROR_SAMPLE
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.widgets.tool_pane import RowState

REQUEST = f"Extract the error code when it is 500 or 503:\n```\n{ERROR_SAMPLE}\n```"


def shown(screen: ChatScreen) -> str:
    return "\n".join(item.content for item in screen.messages.items)


async def test_the_stages_show_and_ctrl_s_saves_the_checked_artifacts(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    async with new_app(services, profile="atom-developer", project_root=project).run_test(
        size=SIZE
    ) as pilot:
        screen = chat(pilot.app)
        shown_stages: list[str] = []
        stage = screen.tools.stage

        def recording(node: str, text: str, state: RowState) -> None:
            shown_stages.append(f"{node}: {text}")
            stage(node, text, state)

        screen.tools.stage = recording  # type: ignore[method-assign]
        await send(pilot, REQUEST)
        assert any("Running Architecture 10.2 compliance tests" in s for s in shown_stages)
        assert any(s.endswith("all levels passed") for s in shown_stages)
        assert [row.tool_name for row in screen.tools.rows][-1] == "validator: all levels passed"
        assert "**Valid atom**" in shown(screen)
        assert "Level 2 · contract run: passed" in shown(screen)
        assert screen.state.leaf_id is not None
        reply = screen.state.index.get(screen.state.leaf_id)
        code = next(a["text"] for a in reply.meta["artifacts"] if a["language"] == "python")

        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        assert isinstance(pilot.app.screen, ConfirmScreen)
        question = pilot.app.screen.question
        assert "atoms/code_atom.py" in question
        assert "atoms/code_atom.yaml" in question
        assert "replaces" not in question
        await pilot.press("enter")  # new files only: Enter saves
        await settle(pilot)

        saved = project / "atoms" / "code_atom.py"
        assert saved.read_text(encoding="utf-8") == code
        assert "pattern: '500|503'" in (project / "atoms" / "code_atom.yaml").read_text()
        assert any("Saved atoms/code_atom.py" in n.message for n in pilot.app._notifications)
        umask = os.umask(0)
        os.umask(umask)
        for name in ("code_atom.py", "code_atom.yaml"):  # a new file, as any other
            assert (project / "atoms" / name).stat().st_mode & 0o777 == 0o666 & ~umask

        # a second save says which files it replaces, and Enter there cancels: nothing written
        saved.write_text("# edited by hand\n", encoding="utf-8")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        assert "replaces the file there" in pilot.app.screen.question
        await pilot.press("enter")
        await settle(pilot)
        assert saved.read_text(encoding="utf-8") == "# edited by hand\n"


async def test_with_no_artifacts_on_the_path_ctrl_s_says_so(services: Services) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert any("No reply here has files to save" in n.message for n in pilot.app._notifications)
