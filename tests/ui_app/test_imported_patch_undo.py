"""In the app, an imported "applied" patch is history: the tree says "applied elsewhere",
"Undo last patch" and "Redo patch" offer nothing, and the file is never written (the reported
rewrite and the ``base_sha256: null`` delete)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ide_helper.test_forged_patches import VICTIM, crafted_export, forged_edits
from tests.ui_app.conftest import SIZE, new_app, settle
from tests.ui_app.test_file_rewind import notes, tree_line
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.widgets.conversation_tree.labels import ELSEWHERE_MARK


@pytest.mark.parametrize("variant", [0, 1], ids=["rewrite", "delete"])
async def test_undo_offers_nothing_for_an_imported_patch(
    services: Services, tmp_path: Path, variant: int
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "Makefile").write_text(VICTIM)
    folder = crafted_export(tmp_path / "export", forged_edits()[variant])
    conversation = services.store.import_jsonl(folder)
    services.store.update_conversation_meta(conversation.id, project_root=str(project))
    async with new_app(services, conversation_id=conversation.id).run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert ELSEWHERE_MARK in tree_line(pilot, "m3")
        for command in ("Undo last patch", "Redo patch"):
            await palette_run(pilot, command)
            await settle(pilot)
            assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert notes(pilot)  # it said why nothing was offered
    assert (project / "Makefile").read_text() == VICTIM
