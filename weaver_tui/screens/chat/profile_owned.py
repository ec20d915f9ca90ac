"""What a profile brings of its own to the chat screen, read from its traits: its keys (and
their palette commands) and its lines panel (:class:`agents.profile.ProfileKey`,
:attr:`agents.profile.ProfileTraits.panel_lines`). The app knows neither key nor panel by
name: a profile declares them in its own folder.

A key runs its handler with a :class:`~agents.profile.ProfileContext` (the open conversation,
the store, the data folder, the settings sections profiles read) and shows the one sentence it
returns; a handler that fails is said in one sentence, never a traceback. The panel's lines
are read again when a conversation opens, after each turn and after each key.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.binding import Binding, BindingsMap

from weaver_tui.keymap import KeyAction

if TYPE_CHECKING:
    from agents.profile import ProfileContext, ProfileKey
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.profile_panel import ProfilePanel
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

KEY_ACTION = "profile_key"
"""The screen's action that runs the open profile's key number N (``profile_key(N)``)."""


class ProfileOwned:
    """The open profile's own keys and lines panel on one chat screen.

    ``bindings`` sets the screen's bindings (its own plus the given ones), so the keys of a
    profile left behind stop working."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        panels: ProfilePanel,
        *,
        bindings: Callable[[list[Binding]], None],
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._panels = panels
        self._bindings = bindings
        self._handlers: dict[str, Any] = {}

    def keys(self) -> tuple[ProfileKey, ...]:
        return self._state.traits.keys

    def commands(self) -> list[KeyAction]:
        """The palette's entries for the open profile's keys."""
        return [
            KeyAction(key.command, key.description, key.key, "chat", f"{KEY_ACTION}({i})")
            for i, key in enumerate(self.keys())
        ]

    def apply(self) -> None:
        """Bind the open profile's keys (and only those) and show its lines panel."""
        self._bindings(
            [
                Binding(
                    key.key,
                    f"{KEY_ACTION}({i})",
                    key.command,
                    tooltip=key.description,
                    priority=True,  # as the chat's own keys: the composer never swallows it
                )
                for i, key in enumerate(self.keys())
                if key.key
            ]
        )
        if self._state.traits.panel_lines and self._state.traits.panel is None:
            from weaver_tui.widgets.profile_lines import ProfileLines

            if not isinstance(self._panels.panel, ProfileLines):
                self._panels.show(ProfileLines())
            self.refresh()

    def context(self) -> ProfileContext:
        from agents.profile import ProfileContext

        conversation = self._state.conversation
        settings = self._services.settings
        return ProfileContext(
            conversation_id=conversation.id if conversation else None,
            store=self._state.store,
            data_dir=Path(settings.storage.data_dir),
            settings=settings.profile_settings(),
        )

    def refresh(self) -> None:
        """Read the lines panel's lines again (nothing without one)."""
        from weaver_tui.widgets.profile_lines import ProfileLines

        spec = self._state.traits.panel_lines
        panel = self._panels.panel
        if not spec or not isinstance(panel, ProfileLines):
            return
        self._surface.run_worker(self._refresh(spec, panel), group="profile-lines", exclusive=True)

    async def _refresh(self, spec: str, panel: Any) -> None:
        try:
            lines = await self._call(spec, "The profile's panel")
        except Exception as exc:  # noqa: BLE001 (a profile's own code: said in the panel)
            lines = [_sentence(exc)]
        panel.set_lines([str(line) for line in lines] if isinstance(lines, list | tuple) else [])

    async def run_key(self, index: int) -> None:
        """Run the open profile's key number ``index`` and show what it says."""
        keys = self.keys()
        if not 0 <= index < len(keys):
            return
        key = keys[index]
        try:
            said = await self._call(key.handler, f"The command {key.command!r}")
        except Exception as exc:  # noqa: BLE001 (a profile's own code: one sentence)
            self._surface.notify(_sentence(exc), severity="error", title=key.command)
            return
        if said:
            self._surface.notify(str(said), title=key.command)
        self.refresh()

    async def _call(self, spec: str, what: str) -> Any:
        handler = self._handlers.get(spec)
        if handler is None:
            from agents.profile_registry import load_handler

            handler = self._handlers[spec] = load_handler(spec, what)
        result = handler(self.context())
        if inspect.isawaitable(result):
            result = await result
        return result


def _sentence(exc: Exception) -> str:
    said = getattr(exc, "user_message", None) or str(exc) or type(exc).__name__
    logger.warning("a profile's key or panel failed", extra={"error": said})
    return said[:300]


def merged_bindings(base: BindingsMap | None, extra: list[Binding]) -> BindingsMap:
    """A screen's own bindings and ``extra`` (the open profile's keys) as one map."""
    own = base.copy() if base is not None else BindingsMap()
    return BindingsMap.merge([own, BindingsMap(extra)]) if extra else own
