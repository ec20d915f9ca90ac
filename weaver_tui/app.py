"""The Textual application: screens, global keys, themes and the command palette. Thin on
purpose: the chat screen owns the conversation logic, widgets talk upward through messages.

Start-up is kept light so the first frame paints fast: this module imports no agent code;
the chat screen opens the store (SQLite, fast) and imports the runtime (LangGraph, LangChain)
only after the first paint, while the user is still reading the screen.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import BindingType
from textual.screen import Screen
from textual.theme import Theme

from themes.weaver import DEFAULT_THEME, ROLE_VARIABLE_DEFAULTS, WEAVER_THEMES
from weaver_tui.keymap import all_actions, bindings_for

if TYPE_CHECKING:
    from textual.command import Provider

    from weaver_tui.services import Services
    from weaver_tui.settings import Settings

logger = logging.getLogger(__name__)


def _weaver_commands() -> type[Provider]:
    """The palette provider, imported when the palette first opens (not at start-up)."""
    from weaver_tui.commands import WeaverCommands

    return WeaverCommands


class WeaverApp(App[None]):
    """weaver-tui: chat with agent profiles over a conversation tree you can branch."""

    TITLE = "weaver-tui"
    CSS_PATH = Path(__file__).with_name("app.tcss")
    COMMANDS: ClassVar[set[Any]] = App.COMMANDS | {_weaver_commands}
    BINDINGS: ClassVar[list[BindingType]] = bindings_for("app")

    def __init__(
        self,
        services: Services,
        *,
        profile: str | None = None,
        conversation_id: str | None = None,
        project_root: Path | None = None,
    ) -> None:
        super().__init__()
        self.services = services
        self.start_profile = profile
        self.start_conversation_id = conversation_id
        self.project_root = project_root
        for theme in WEAVER_THEMES:
            self.register_theme(theme)
        self.theme = self._initial_theme()
        self._saved_theme = self.theme

    def _initial_theme(self) -> str:
        wanted = getattr(self.services.settings, "theme", None) or DEFAULT_THEME
        if wanted in self.available_themes:
            return wanted
        logger.warning("unknown theme in settings, using the default", extra={"theme": wanted})
        return DEFAULT_THEME

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Role colours for themes that do not define them (Textual's own)."""
        return dict(ROLE_VARIABLE_DEFAULTS)

    def get_default_screen(self) -> Screen[Any]:
        from weaver_tui.screens.chat import ChatScreen

        return ChatScreen(
            self.services,
            profile=self.start_profile,
            conversation_id=self.start_conversation_id,
            project_root=self.project_root,
        )

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._save_theme)

    def _save_theme(self, theme: Theme) -> None:
        """Remember the theme the user picked (from the palette's Theme command or a key)."""
        if theme.name == self._saved_theme:
            return
        from weaver_tui.settings import save_setting

        try:
            save_setting("theme", theme.name)
            self._saved_theme = theme.name
        except Exception as exc:  # an unwritable config must not break theme switching
            logger.warning("could not save the theme", extra={"error": str(exc)})
            self.notify(f"Theme not saved: {exc}", severity="warning")

    def action_help(self) -> None:
        """Show every key and command (F1)."""
        from weaver_tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(all_actions()))


def make_app(
    services_or_settings: Services | Settings,
    *,
    profile: str | None = None,
    conversation_id: str | None = None,
    project_root: Path | None = None,
) -> WeaverApp:
    """Build the app from ready :class:`Services` or from :class:`Settings` (the CLI's path)."""
    from weaver_tui.services import Services

    services = (
        services_or_settings
        if isinstance(services_or_settings, Services)
        else Services(services_or_settings)
    )
    return WeaverApp(
        services, profile=profile, conversation_id=conversation_id, project_root=project_root
    )
