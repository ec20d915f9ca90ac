"""On a narrow terminal the side panes step aside for the chat, and come back when it widens;
a pane the user shows or hides stays as the user left it."""

from __future__ import annotations

from textual.app import App
from textual.widget import Widget

from tests.ui_app.conftest import chat, chat_ready, new_app, send, settle
from themes.weaver import ROLE_VARIABLE_DEFAULTS
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.chat_skeleton import ChatSkeleton


def panes(screen: ChatScreen) -> tuple[Widget, Widget]:
    return screen.tree, screen.query_one("#side-pane")


def shown(screen: ChatScreen) -> tuple[bool, bool]:
    tree, side = panes(screen)
    return tree.display and tree.region.width > 0, side.display and side.region.width > 0


async def test_an_80_column_terminal_gives_the_tool_pane_s_room_to_the_chat(
    services: Services,
) -> None:
    app = new_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await chat_ready(pilot)
        await send(pilot, "What files are in this project?")
        screen = chat(app)
        assert shown(screen) == (True, False)
        assert screen.messages.size.width >= 48  # not the 22 columns beside both panes
        # the user asks for the tool pane: it stays while the terminal stays narrow
        await pilot.press("ctrl+g")
        await pilot.resize_terminal(90, 24)
        await settle(pilot)
        assert shown(screen) == (True, True)
        # very narrow: the tree goes too (the tool pane is the user's choice), and the focus
        # leaves the hidden tree for the composer
        await pilot.press("ctrl+t")
        assert screen.tree.has_focus
        await pilot.resize_terminal(60, 24)
        await settle(pilot)
        assert shown(screen) == (False, True)
        assert screen.composer.has_focus
        # wide again: what the width hid comes back
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert shown(screen) == (True, True)


async def test_a_pane_the_user_hid_stays_hidden_when_the_terminal_widens(
    services: Services,
) -> None:
    app = new_app(services)
    async with app.run_test(size=(120, 40)) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        assert shown(screen) == (True, True)
        await pilot.press("ctrl+g")  # the user hides the tool pane
        await pilot.resize_terminal(60, 24)
        await settle(pilot)
        assert shown(screen) == (False, False)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert shown(screen) == (True, False)


class SkeletonHost(App[None]):
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(ROLE_VARIABLE_DEFAULTS)

    def on_mount(self) -> None:
        self.push_screen(ChatSkeleton("ide-helper"))


async def test_the_launch_frame_is_already_fitted_to_the_terminal() -> None:
    app = SkeletonHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChatSkeleton)
        assert app.screen.query_one("#side-pane").has_class("-hidden")
        assert not app.screen.query_one("#tree-pane").has_class("-hidden")
