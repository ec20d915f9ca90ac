"""The Textual application: screens, global keys, themes and the command palette. Thin on
purpose: the chat screen owns the conversation logic, widgets talk upward through messages.

Launch paints first. The CLI hands over :class:`~weaver_tui.core.settings.early.PendingSettings`
(theme, data folder and default profile, read without pydantic), and the app's first frame is
:class:`~weaver_tui.screens.chat_skeleton.ChatSkeleton`: the chat screen's layout in the right
theme with a live composer, built from little more than Textual. Right after that paint a
worker opens the store, imports the chat screen and swaps it in (the conversation, its tree,
the message view), then validates every setting with pydantic-settings; a bad setting or
database ends the app with its one sentence and exit code 2 (:attr:`WeaverApp.startup_error`).
The chat screen imports the agent stack (LangGraph, LangChain) after its own paint. Apps built
from validated settings (tests, scripts) show the chat screen at once.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import App
from textual.binding import BindingType
from textual.screen import Screen
from textual.signal import Signal
from textual.theme import Theme

from themes.weaver import APP_STYLESHEET, DEFAULT_THEME, ROLE_VARIABLE_DEFAULTS, WEAVER_THEMES
from weaver_tui.core.heap import (
    freeze_launch_heap,
    pause_collector,
    rarer_young_collections,
    resume_collector,
)
from weaver_tui.keymap import all_actions, bindings_for
from weaver_tui.plain_notify_app import PlainNotifyApp

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.command import Provider
    from textual.driver import Driver

    from weaver_tui.core.services import Services
    from weaver_tui.core.settings.config import Settings
    from weaver_tui.core.settings.pending import PendingSettings
    from weaver_tui.core.stop_signals import StopSignals

logger = logging.getLogger(__name__)


def _weaver_commands() -> type[Provider]:
    """The palette provider, imported when the palette first opens (not at start-up)."""
    from weaver_tui.commands import WeaverCommands

    return WeaverCommands


_SCREEN_PUSHING_ACTIONS = frozenset({"help", "command_palette"})


def _import_chat_screen() -> None:
    """The chat screen's modules (message view, tree, profiles, store); a seam for tests."""
    import weaver_tui.screens.chat.screen  # noqa: F401


class WeaverApp(PlainNotifyApp):
    """weaver-tui: chat with agent profiles over a conversation tree you can branch."""

    TITLE = "weaver-tui"
    CSS_PATH = APP_STYLESHEET
    COMMANDS: ClassVar[set[Any]] = App.COMMANDS | {_weaver_commands}
    BINDINGS: ClassVar[list[BindingType]] = [*bindings_for("app")]

    def __init__(
        self,
        services: Services,
        *,
        profile: str | None = None,
        conversation_id: str | None = None,
        project_root: Path | None = None,
        paint_first: bool | None = None,
    ) -> None:
        super().__init__()
        self.paint_first = not services.settings_ready if paint_first is None else paint_first
        """Launch: paint :class:`ChatSkeleton` first, then swap in the chat screen (the default
        when the settings come pending, i.e. from the CLI)."""
        self._stop_signals: StopSignals | None = None
        self._gc_thresholds: tuple[int, ...] | None = None
        """The collector's thresholds before the app made young collections rarer."""
        self.services = services
        self.start_profile = profile
        self.start_conversation_id = conversation_id
        self.project_root = project_root
        self.startup_error: str | None = None
        """Why the launch failed after the first paint (a bad setting, a database that cannot
        be opened): one sentence; the app then exits with code 2 and the CLI prints it."""
        self.settings_validated_signal: Signal[Settings] = Signal(self, "settings-validated")
        """Published once the settings are validated (at once when they came validated)."""
        self._held_input: list[events.Key | events.Paste] | None = None
        """Keys and pastes that arrived while the chat screen replaced the launch frame; the
        chat screen gets them once it holds the draft (see :meth:`_show_chat`)."""
        for theme in WEAVER_THEMES:
            self.register_theme(theme)
        self._start_in_theme(self._initial_theme())
        self._saved_theme = self.theme

    def _start_in_theme(self, name: str) -> None:
        """Start in theme ``name`` as if Textual's default were it.

        Assigning ``self.theme`` here would run Textual's theme watcher, which schedules a
        re-parse of every stylesheet source with the new variables before the first frame, and
        that re-parse drops the stylesheet's parse cache, so the app's CSS is parsed twice
        before the first paint (~15 ms). Nothing is parsed yet at this point, so the theme's
        variables are simply set, with the classes the watcher would give the app.
        """
        self.set_reactive(WeaverApp.theme, name)
        self.stylesheet.set_variables(self.get_css_variables())
        dark = self.current_theme.dark
        classes = {c: False for c in self.classes if c.startswith("-theme-")}
        classes |= {f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}
        self.update_classes(classes, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)  # Textual's watcher does the same

    def _initial_theme(self) -> str:
        wanted = self.services.early.theme or DEFAULT_THEME
        if wanted in self.available_themes:
            return wanted
        logger.warning("unknown theme in settings, using the default", extra={"theme": wanted})
        return DEFAULT_THEME

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Role colours for themes that do not define them (Textual's own)."""
        return dict(ROLE_VARIABLE_DEFAULTS)

    def get_default_screen(self) -> Screen[Any]:
        if self.paint_first:
            from weaver_tui.screens.chat_skeleton import ChatSkeleton

            return ChatSkeleton(self.start_profile or "")
        return self._chat_screen()

    def _chat_screen(self) -> Screen[Any]:
        from weaver_tui.screens.chat.screen import ChatScreen

        return ChatScreen(
            self.services,
            profile=self.start_profile,
            conversation_id=self.start_conversation_id,
            project_root=self.project_root,
        )

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._save_theme)
        from weaver_tui.core.stop_signals import StopSignals

        self._stop_signals = StopSignals(
            asyncio.get_running_loop(), self._stop_signal, self._abandon_terminal_output
        )
        self._stop_signals.install()

    def _stop_signal(self, signum: int) -> None:
        """SIGTERM (a kill, a shutdown) or SIGHUP (the terminal closed) ends the app as Ctrl+Q
        does: the reply being written is cancelled and kept, marked, and the branch is
        remembered, instead of a death that leaves it "streaming" until the next start."""
        logger.info("stop signal: quitting", extra={"signal": signal.Signals(signum).name})
        self.exit(return_code=128 + signum)

    def _abandon_terminal_output(self) -> None:
        """From the stop-signal watchdog's thread: stop waiting for a terminal that does not
        read (only sets a flag)."""
        from weaver_tui.terminal_writer import LinuxTerminalDriver

        if isinstance(self._driver, LinuxTerminalDriver):
            self._driver.abandon_output()

    def exit(self, result: None = None, return_code: int = 0, message: Any | None = None) -> None:
        """End the app (Ctrl+Q, a stop signal, a failed launch). A terminal that has stopped
        reading cannot hold the exit: its last output is waited for a bounded time only."""
        from weaver_tui.terminal_writer import LinuxTerminalDriver

        if isinstance(self._driver, LinuxTerminalDriver):
            self._driver.leaving()
        super().exit(result, return_code=return_code, message=message)

    def get_driver_class(self) -> type[Driver]:
        """Textual's own driver, except on Linux and macOS terminals: the same driver with an
        output thread that cannot hang the app when the terminal goes away."""
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:
            from weaver_tui.terminal_writer import LinuxTerminalDriver

            return LinuxTerminalDriver
        return driver

    @on(events.Load)
    def _pause_gc(self) -> None:
        """Python's cyclic GC waits until the first frame is painted (see :meth:`_first_paint`;
        the ``weaver-tui`` command pauses it before importing Textual)."""
        pause_collector()

    @on(events.Ready)
    def _first_paint(self) -> None:
        """The first frame is on screen: resume what it did not need to wait for.

        The garbage collector was paused for it: building the first frame allocates a lot,
        and a full collection over the freshly imported heap costs 20-40 ms; it runs once the
        chat screen is in (the skeleton's case) or now. Then the settings are validated, if
        they came pending.
        """
        self.call_later(self._after_first_paint)  # after every other Ready handler

    def _after_first_paint(self) -> None:
        if self.paint_first:
            self._finish_launch()
            return
        self._resume_gc()
        self._tell_settled_rewinds()
        if not self.services.settings_ready:
            self._validate_settings()

    def _tell_settled_rewinds(self) -> None:
        """One notice for each file rewind a killed process left half done, which opening the
        store finished or undid (once)."""
        told, self.services.rewind_notices = self.services.rewind_notices, []
        for sentence in told:
            self.notify(sentence, severity="warning", timeout=30)

    def heap_settled(self) -> None:
        """The chat's warm-up is over, or failed: the launch's heap is frozen as it is and the
        collector runs again (:mod:`weaver_tui.core.heap`)."""
        freeze_launch_heap()
        self._resume_gc()

    def _resume_gc(self) -> None:
        if resume_collector():
            self._gc_thresholds = rarer_young_collections()

    def on_unmount(self) -> None:
        if self._stop_signals is not None:
            self._stop_signals.uninstall()
        self._resume_gc()  # for an app that ends before its first frame
        if self._gc_thresholds is not None:
            gc.set_threshold(*self._gc_thresholds)

    @work(thread=True, group="launch")
    def _finish_launch(self) -> None:
        """After the skeleton's paint, off the event loop (typing in the composer stays live):
        open the store, import the chat screen and swap it in (the conversation comes first),
        then validate the settings; the chat screen adds the model badge and starts its
        warm-up when they are (``settings_validated_signal``)."""
        from storage.store import StorageError

        try:
            self.services.store  # noqa: B018 - opened here, off the event loop
        except (StorageError, OSError) as exc:
            where = getattr(exc, "filename", None) or "the data folder"
            sentence = (
                f"Cannot write to {where}: {exc.strerror}."
                if isinstance(exc, OSError) and exc.strerror
                else str(exc)
            )
            self._to_app(self._startup_failed, sentence)
            return
        self._to_app(self._tell_settled_rewinds)
        _import_chat_screen()
        if self._to_app(self._show_chat):
            self._validate_settings_now()

    def _to_app(self, callback: Callable[..., Any], *args: Any) -> bool:
        """Run ``callback`` on the app's thread; False when the app has already closed (the
        user quit during the launch), so a late worker ends quietly."""
        try:
            self.call_from_thread(callback, *args)
        except RuntimeError:
            if self.is_running:
                raise
            return False
        return True

    async def _show_chat(self) -> None:
        from weaver_tui.screens.chat_skeleton import ChatSkeleton

        skeleton = self.screen_stack[0]
        assert isinstance(skeleton, ChatSkeleton)
        # a screen pushed over it: swap when it is back (Textual signals no pop to await)
        while self.screen is not skeleton:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        chat = self._chat_screen()
        # switch_screen pops the result callback push_screen gives every screen it shows; the
        # default screen never got one, so give it the same no-op callback first.
        skeleton._push_result_callback(skeleton, None)
        chat.draft_pending = True  # type: ignore[attr-defined]
        # From the swap on, the chat screen is on top before it has mounted or holds the
        # draft: a key routed to it then would be lost, so keys wait until it has the draft.
        self._held_input = []
        try:
            await self.switch_screen(chat)
            # Read the draft only now: keys that reached the skeleton's composer before the
            # swap are handled by the time it is removed.
            chat.take_draft(skeleton.draft, send=skeleton.send_requested)  # type: ignore[attr-defined]
        finally:
            self.paint_first = False
            # The collector stays paused until the chat's warm-up is over (heap_settled):
            # its collections over the heap imported meanwhile would be CPU the warm-up, and
            # a message typed at once, wait for.
            self.call_later(self._release_held_input)

    async def on_event(self, event: events.Event) -> None:
        held = self._held_input
        # new input only: a forwarded key is one the chat screen had, bubbling back up
        if (
            held is not None
            and isinstance(event, events.Key | events.Paste)
            and not event.is_forwarded
        ):
            held.append(event)
            return
        await super().on_event(event)

    async def _release_held_input(self) -> None:
        """Route the keys held during the swap, in order, now that the chat screen holds the
        draft. This runs from the app's queue, behind every key that arrived before it (each
        held as it came) and behind the composer's focus."""
        held, self._held_input = self._held_input or [], None
        for event in held:
            await super().on_event(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.paint_first and action in _SCREEN_PUSHING_ACTIONS:
            return None  # the skeleton must stay on top until the chat screen replaces it
        return True

    @work(thread=True, group="settings", exit_on_error=False)
    def _validate_settings(self) -> None:
        self._validate_settings_now()

    def _validate_settings_now(self) -> bool:
        """Validate every setting (pydantic-settings, ~0.2 s of imports); runs in a worker.
        False when they are invalid (the app is then ending with their sentence)."""
        from agents.errors import ConfigError

        try:
            settings = self.services.validate_settings()
        except ConfigError as exc:
            self._to_app(self._startup_failed, exc.user_message)
            return False
        return self._to_app(self._settings_validated, settings)

    def _startup_failed(self, sentence: str) -> None:
        """As before the first frame: the sentence on stderr (the CLI prints it), exit code 2."""
        logger.error("launch failed", extra={"error": sentence})
        self._resume_gc()
        self.startup_error = sentence
        self.exit(return_code=2)

    def _settings_validated(self, settings: Settings) -> None:
        if settings.ui.theme != self.services.early.theme:  # the peek and pydantic disagree: a bug
            logger.warning(
                "the first frame's theme differs from the validated one",
                extra={"theme": settings.ui.theme, "early": self.services.early.theme},
            )
            wanted = (
                settings.ui.theme if settings.ui.theme in self.available_themes else DEFAULT_THEME
            )
            self._saved_theme = wanted  # already the saved one: do not write the config
            self.theme = wanted
        self.settings_validated_signal.publish(settings)

    def _save_theme(self, theme: Theme) -> None:
        """Remember the theme the user picked (from the palette's Theme command or a key)."""
        if theme.name == self._saved_theme:
            return
        from weaver_tui.core.settings.config import save_setting

        try:
            save_setting("ui.theme", theme.name)
            self._saved_theme = theme.name
        except Exception as exc:  # noqa: BLE001 (an unwritable config must not break theme switching)
            logger.warning("could not save the theme", extra={"error": str(exc)})
            self.notify(f"Theme not saved: {exc}", severity="warning")

    def action_help(self) -> None:
        """Show every key and command (F1)."""
        from weaver_tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(all_actions()))


def make_app(
    services_or_settings: Services | Settings | PendingSettings,
    *,
    profile: str | None = None,
    conversation_id: str | None = None,
    project_root: Path | None = None,
    paint_first: bool | None = None,
) -> WeaverApp:
    """Build the app from ready :class:`Services`, from validated :class:`Settings`, or from
    :class:`PendingSettings` (the CLI's launch: validated after the first paint)."""
    from weaver_tui.core.services import Services

    services = (
        services_or_settings
        if isinstance(services_or_settings, Services)
        else Services(services_or_settings)
    )
    return WeaverApp(
        services,
        profile=profile,
        conversation_id=conversation_id,
        project_root=project_root,
        paint_first=paint_first,
    )
