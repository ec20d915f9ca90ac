"""A version flip far above the bottom of a long path, in the running app: the flipped
version is selected and on screen, the rows above the fork are the same objects, the lines
below the fork are rendered only around the flipped message, and the branch is remembered."""

from __future__ import annotations

import pytest

from storage.models import Role
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle, wait_until
from weaver_tui.core.services import Services

PATH = 60
FLIP_AT = PATH - 15
"""A reply fifteen messages from the bottom: screens above it."""


def _seed(services: Services) -> tuple[str, list[str], str]:
    store = services.store
    conversation = store.create_conversation("paper-pilot", "Long")
    main: list[str] = []
    parent = None
    for n in range(PATH):
        role: Role = "user" if n % 2 == 0 else "assistant"
        body = "\n\n".join(f"Paragraph {k} of message {n}." for k in range(4))
        parent = store.add_message(
            conversation.id, role, f"Message {n} begins.\n\n{body}", parent
        ).id
        main.append(parent)
    other = store.add_message(conversation.id, "assistant", "The other version.", main[FLIP_AT - 1])
    store.set_active_leaf(conversation.id, main[-1])
    return conversation.id, main, other.id


@pytest.mark.usefixtures("shared_notes")  # paper-pilot only opens
async def test_a_flip_far_above_the_bottom_shows_the_flipped_version(services: Services) -> None:
    conversation_id, main, other = _seed(services)
    async with new_app(services, conversation_id=conversation_id).run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        view = screen.messages
        assert any(f"Message {PATH - 1} begins." in line for line in view.visible_text())
        above = view.items[:FLIP_AT]
        screen.flip_version(main[FLIP_AT], +1)
        await pilot.pause()
        assert view.selected_message_id == other
        assert any("The other version." in line for line in view.visible_text())
        assert all(a is b for a, b in zip(view.items[:FLIP_AT], above, strict=True))
        assert [item.id for item in view.items][FLIP_AT:] == [other]
        # and back: the old branch down to the old leaf, the flipped message in view
        screen.flip_version(other, -1)
        await pilot.pause()
        assert view.selected_message_id == main[FLIP_AT]
        assert [item.id for item in view.items] == main
        assert any(f"Message {FLIP_AT} begins." in line for line in view.visible_text())
        bottom = view._layout.entries[-1]  # screens below the view: not rendered for it
        assert bottom.blocks is None or all(block.strips is None for block in bottom.blocks)
        await wait_until(pilot, lambda: not screen.state._writes.pending)
        assert services.store.active_leaf(conversation_id).id == main[-1]  # type: ignore[union-attr]
        assert screen.tree.active_leaf_id == main[-1]
