"""The tree pane as the user reads it: headed, wider on a wider terminal, and each version of
a message readable apart from the others (what differs shown, the version label never cut)."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from tests.ui_app.conftest import chat, chat_ready, new_app, settle
from weaver_tui.core.services import Services
from weaver_tui.widgets.conversation_tree import ConversationTree

ASKED = (
    "where is load_settings defined in this project?",
    "where is load_settings called from in this project?",
)


def seed_two_versions(services: Services) -> tuple[str, list[str]]:
    store = services.store
    conversation = store.create_conversation("ide-helper", "Settings")
    ids = [store.add_message(conversation.id, "user", text, None).id for text in ASKED]
    return conversation.id, ids


def drawn_lines(tree: ConversationTree) -> list[str]:
    width, height = tree.size
    return [strip.text for strip in tree.render_lines(Region(0, 0, width, height))]


def drawn_line(tree: ConversationTree, version: str) -> str:
    (line,) = [line for line in drawn_lines(tree) if version in line]
    return line


@pytest.mark.parametrize("width", [120, 200])
async def test_versions_read_apart_and_show_their_whole_version_label(
    services: Services, width: int
) -> None:
    conversation_id, _ids = seed_two_versions(services)
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=(width, 30)) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        tree = chat(app).tree
        one, two = drawn_line(tree, "v1/2"), drawn_line(tree, "v2/2")
        assert one.replace("v1/2", "") != two.replace("v2/2", "")
        assert "defined" in one
        assert "called" in two


async def test_the_pane_is_headed_and_grows_with_the_terminal(services: Services) -> None:
    conversation_id, _ids = seed_two_versions(services)
    widths = []
    for width in (120, 200):
        app = new_app(services, conversation_id=conversation_id)
        async with app.run_test(size=(width, 30)) as pilot:
            await chat_ready(pilot)
            await settle(pilot)
            tree = chat(app).tree
            widths.append(tree.outer_size.width)
            assert drawn_lines(tree)[0].strip() == "Conversation tree"
    assert widths[1] > widths[0] + 10
