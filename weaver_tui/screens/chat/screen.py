"""The chat screen: the active path of one conversation, its tree, the tools, the composer.

The screen lays the widgets out and keeps the chat's status as Textual reactives
(``conversation_open``, ``agents_ready``, ``running``, ``retry_user_id``): their watchers
refresh the key bindings and send a draft whose Enter came too early. The work belongs to plain
classes the screen owns, each handed the screen as a :class:`~.chat_surface.ChatSurface` (its
panes and its status, nothing else) and the other pieces it works with. Whatever changes the
conversation (send, fork, edit, regenerate, continue, resume, delete, copy, summarise, pins)
is a call of the chat's :class:`~weaver_tui.core.chat_controller.ChatController`, which has the
runtime write it and applies the events to the state; the pieces map keys to those calls and
the events to widgets:

- :class:`~.sender.Sender`: Enter in the composer: the message handed to the runtime's one
  way in, which stores it and runs its turn;
- :class:`~.path_presenter.PathPresenter`: the path, the tree and the header from the state;
- :class:`~.turn_runner.TurnRunner`: the ``turn`` worker, the agent runtime, Esc's cancel;
- :class:`~.branching.Branching`: fork, edit, regenerate, versions, checkout, delete (a
  widget: the chat's body, where the tree's and the message view's requests arrive);
- :class:`~.compose_mode.ComposeMode`: where the next message goes (fork / edit);
- :class:`~.conversation_switcher.ConversationSwitcher`: new, open, switch profile;
- :class:`~.conversation_settings.ConversationSettings`: model, instructions, attachments;
- :class:`~.context_steering.ContextSteering`: pins, omissions, summaries, the token count;
- :class:`~.artifact_saver.ArtifactSaver`: exports and a reply's files;
- :class:`~.profile_panel.ProfilePanel` (a widget: the slot above the composer, with the
  panel's keys) and :class:`~.profile_features.ProfileFeatures`: what the open profile's
  traits add (speakers and views, patch review, memory, the demo);
- :class:`~.conversation_opener.ConversationOpener`: the first read, in a thread.

What a piece asks of the whole screen (answer a message again, resume a paused turn, open
another conversation, a turn ended, the header is stale) arrives as a Textual message
(:mod:`.requests`). The pieces that own keys (branching, the profile panel) are widgets with
their own actions and handlers, and the palette runs their commands there (``owner`` in
:mod:`weaver_tui.keymap`); a key of theirs that works from anywhere on the chat is a screen
binding that runs the owner's action (:meth:`action_on_widget`). The screen's own actions are
the screen-level ones. Expected failures arrive as ``RunError`` events and become a
notification plus an inline error on the reply; anything unexpected is caught by the one
``Worker.StateChanged`` handler, logged, and shown as a sentence: never a traceback.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

import weaver_tui.widgets.message_view.warm_up as render_warm_up
from storage.store import StorageError
from weaver_tui.chat_preview import profile_badge
from weaver_tui.commands import available_actions, run_action
from weaver_tui.core.chat_controller import ChatController
from weaver_tui.core.chat_state import ChatState
from weaver_tui.core.chat_state.project_folder import ProjectFolder
from weaver_tui.core.daemon_work import in_daemon_thread
from weaver_tui.keymap import PROFILE_PANEL, KeyAction, bindings_for, reach_from_anywhere
from weaver_tui.messages import ContextWindowKnown, PathChanged, TokensArrived
from weaver_tui.screens.chat.agents_md_badge import AgentsMdBadge
from weaver_tui.screens.chat.artifact_saver import ArtifactSaver
from weaver_tui.screens.chat.auto_summary import AutoSummary
from weaver_tui.screens.chat.branching import Branching
from weaver_tui.screens.chat.compose_mode import ComposeMode
from weaver_tui.screens.chat.context_steering import ContextSteering
from weaver_tui.screens.chat.conversation_opener import ConversationOpener
from weaver_tui.screens.chat.conversation_settings import ConversationSettings
from weaver_tui.screens.chat.conversation_switcher import ConversationSwitcher
from weaver_tui.screens.chat.file_rewind import FileRewind
from weaver_tui.screens.chat.first_turn_modules import import_first_turn_modules
from weaver_tui.screens.chat.held_messages import HeldMessages
from weaver_tui.screens.chat.host_queue import HostQueue
from weaver_tui.screens.chat.local_models import LocalModels
from weaver_tui.screens.chat.mcp_switches import McpSwitches
from weaver_tui.screens.chat.pane_fit import PaneFit
from weaver_tui.screens.chat.path_presenter import RETRYABLE, PathPresenter, empty_hint
from weaver_tui.screens.chat.profile_features import (
    PROFILE_ACTIONS,
    ProfileFeatures,
    warm_profile_modules,
)
from weaver_tui.screens.chat.profile_owned import ProfileOwned, merged_bindings
from weaver_tui.screens.chat.profile_panel import ProfilePanel
from weaver_tui.screens.chat.requests import (
    AnswerRequested,
    ConversationRequested,
    HeaderStale,
    ResumeRequested,
    TurnEnded,
)
from weaver_tui.screens.chat.sender import Sender
from weaver_tui.screens.chat.slash_dispatch import SlashDispatch
from weaver_tui.screens.chat.space_follower import FOLLOW_S, SpaceFollower
from weaver_tui.screens.chat.space_host import SpaceHost
from weaver_tui.screens.chat.styled_at_mount import keep_mount_styles
from weaver_tui.screens.chat.tool_approvals import ToolApprovals
from weaver_tui.screens.chat.turn_runner import TurnRunner
from weaver_tui.screens.chat.turn_steer import TurnSteer
from weaver_tui.widgets.chat_header import ChatHeader
from weaver_tui.widgets.composer import Composer
from weaver_tui.widgets.conversation_tree import ConversationTree
from weaver_tui.widgets.footer import WeaverFooter
from weaver_tui.widgets.message_view import MessageView
from weaver_tui.widgets.queued_strip import QueuedStrip
from weaver_tui.widgets.slash_menu import SlashMenu
from weaver_tui.widgets.tool_pane import ToolStatusPane

if TYPE_CHECKING:
    from agents.patch_review.review import PendingReview
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.demo_player import DemoPlayer
    from weaver_tui.screens.chat.turn_view import TurnView
    from weaver_tui.widgets.channel_tabs import ChannelTabs
    from weaver_tui.widgets.project_root_label import ProjectRootLabel
    from weaver_tui.widgets.space_panel import SpacePanel

logger = logging.getLogger(__name__)


class ChatScreen(Screen[None]):
    """Header, tree | messages + composer | tool pane, footer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings_for("chat"),
        *reach_from_anywhere(PROFILE_PANEL),
    ]

    conversation_open: var[bool] = var(False, bindings=True)
    """True once ``self.state`` holds the conversation; until then (a long conversation's
    preview is on screen, see :mod:`weaver_tui.chat_preview`) the screen only shows: its
    actions are unavailable and Enter keeps the draft."""
    agents_ready: var[bool] = var(False)
    """The warm-up after the first paint has imported the agent stack (the speakers' panel,
    the views and the context count need it)."""
    running: var[bool] = var(False, bindings=True)
    """A reply (or a cancellable pause) runs; kept by the :class:`TurnRunner`."""
    retry_user_id: var[str | None] = var(None, bindings=True)
    """The user message whose reply failed or was cancelled on the shown path (F5)."""

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
        self.project_root = project_root
        self.state = state = ChatState(services.store, profile or services.early.default_profile)
        self.controller = controller = ChatController(
            state, open_runtime=services.runtime, model=services.amodel, project_root=project_root
        )
        """The chat without Textual: every key that changes the conversation ends here."""
        self.compose_mode = mode = ComposeMode(self, state)
        folder = ProjectFolder(state, project_root)
        self.features = ProfileFeatures(
            self, state, services, stage=self, project_dir=folder.project_dir
        )
        self.panels = ProfilePanel(
            self,
            state,
            folder,
            pending_patches=self.features.pending_count,
            review_patch=self.features.review_patch,
            id="profile-panel",
        )
        self.steering = ContextSteering(self, state, services, controller)
        self.presenter = PathPresenter(self, state, self.panels, self.steering, project_root)
        self.auto_summary = AutoSummary(self, state, services, self.steering.window, controller)
        controller.before_turn = self.auto_summary.before_turn
        self.turns = TurnRunner(
            self,
            state,
            controller,
            row_filter=self.panels.live_row_filter,
            add_to_tree=self.presenter.add_to_tree,
            shows_calls=lambda: self.panels.viewer() is None,
        )
        self.owned = ProfileOwned(
            self, state, services, self.panels, bindings=self._set_profile_bindings
        )
        self.approvals = ToolApprovals(self, state)
        self.mcp_switches = McpSwitches(self, state, services, runtime=self.turns.open_runtime)
        self.file_rewind = FileRewind(self, state, controller, self._turns_folder)
        self.branching = Branching(
            self, state, controller, mode, self.presenter,
            after_checkout=self.file_rewind.offer_after_checkout,
            going_back=self.file_rewind.offer_restore, id="chat-body",
        )  # fmt: skip
        self.switcher = ConversationSwitcher(
            self, state, mode, presenter=self.presenter, branching=self.branching,
            panels=self.panels, warm_up=self.turns.warm_open_profile,
        )  # fmt: skip
        self.local_models = LocalModels(self, services)
        self.conversation_settings = ConversationSettings(
            self,
            state,
            services,
            compose_mode=mode,
            project_dir=self.panels.project_dir,
            local_servers=lambda: self.local_models.servers,
        )
        self.host_queue = HostQueue(self, state, services, panels=self.panels, turns=self.turns)
        self.space_host = SpaceHost(self, state, services, turns=self.turns)
        self.held = HeldMessages(
            self,
            strip=lambda: self.query_one(QueuedStrip),
            send=lambda t: self.sender.send(t),
            conversation=lambda: state.conversation.id if state.conversation else None,
        )
        self.sender = Sender(
            self,
            state,
            compose_mode=mode,
            branching=self.branching,
            settings=self.conversation_settings,
            panels=self.panels,
            presenter=self.presenter,
            turns=self.turns,
            queue=self.host_queue,
            held=self.held,
        )
        self.turn_steer = TurnSteer(self, controller, self.held, meta=self.panels.user_meta)
        self.agents_md = AgentsMdBadge(self, state, controller, self.panels.project_dir)
        self.presenter.on_header = self._header_follows
        self.slash = SlashDispatch(
            self, lambda: self.query_one(SlashMenu), palette=lambda: available_actions(self),
            run_palette=lambda item: run_action(self, item), profile_keys=self.owned.keys,
            send=self.sender.send, editing=lambda: mode.editing_id is not None,
            with_argument={
                "search": lambda words: self.switcher.choose(search=True, words=words),
                "model": self.conversation_settings.switch_model_to,
                "profile": self.switcher.switch_to,
                "instructions": self.conversation_settings.set_instructions,
            },
        )  # fmt: skip
        self.saver = ArtifactSaver(
            self,
            state,
            data_dir=lambda: Path(services.settings.storage.data_dir),
            project_dir=self.panels.project_dir,
            viewer=self.panels.viewer,
        )
        self.draft_pending = False
        """The app has yet to hand over what was typed at the launch frame (:meth:`take_draft`);
        until then the editor key waits, as the composer does not hold the whole draft."""
        self._owners: dict[str, Widget] = {}
        """The chat widgets found by type for ``on_widget`` actions (:meth:`_widget_of_type`)."""
        self.composer_ready = False
        """True once the first mount has shown the conversation and focused the composer."""
        self.pane_fit = PaneFit()
        """Side panes hidden while the terminal is too narrow (see :mod:`.pane_fit`)."""
        self.opener = ConversationOpener(state, profile, conversation_id)
        self.follower = SpaceFollower(
            self,
            state,
            services.storage,
            presenter=self.presenter,
            panels=self.panels,
            waiting=self.host_queue.waiting,
        )

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield ChatHeader()
        with self.branching:
            yield ConversationTree(id="tree-pane")
            with Vertical(id="chat-main"):
                yield Static(empty_hint(self.state.traits.welcome), id="empty-hint", markup=False)
                yield MessageView(id="messages")
                yield self.panels
                yield QueuedStrip(id="queued")
                yield SlashMenu(id="slash-menu")
                composer = Composer(id="composer")
                composer.key_filter = self.slash.key
                composer.history_source = self._prompt_history
                composer.complete_source = self._complete_mention
                yield composer
            with Vertical(id="side-pane"):
                yield ToolStatusPane(id="tool-pane")
        yield WeaverFooter()

    def _complete_mention(self, before_cursor: str) -> str | None:
        from weaver_tui.core.attach import complete_mention

        return complete_mention(before_cursor, self.project_dir())

    def _prompt_history(self) -> list[str]:
        """The prompts sent to the current profile, newest first (the composer's Up)."""
        try:
            return self.state.store.recent_prompts(self.state.profile)
        except StorageError as exc:
            logger.warning("prompt history unreadable", extra={"error": str(exc)})
            return []

    @property
    def header(self) -> ChatHeader:
        return self.query_one(ChatHeader)

    @property
    def messages(self) -> MessageView:
        return self.query_one("#messages", MessageView)

    @property
    def tree(self) -> ConversationTree:  # type: ignore[override]
        """The conversation tree pane. (It shadows ``DOMNode.tree``, a Rich rendering of the DOM
        Textual only logs for debugging.)"""
        return self.query_one("#tree-pane", ConversationTree)

    @property
    def tools(self) -> ToolStatusPane:
        return self.query_one("#tool-pane", ToolStatusPane)

    @property
    def composer(self) -> Composer:
        return self.query_one("#composer", Composer)

    @property
    def empty_hint(self) -> Static:
        return self.query_one("#empty-hint", Static)

    @property
    def turn(self) -> TurnView | None:
        """The view of the latest turn (its ``outcome`` says how it ended)."""
        return self.turns.turn

    @property
    def turn_worker(self) -> Worker[None] | None:
        return self.turns.worker

    @property
    def selected_id(self) -> str | None:
        """The message selected in the message view (see :class:`~.branching.Branching`)."""
        return self.branching.selected_id

    @selected_id.setter
    def selected_id(self, message_id: str | None) -> None:
        self.branching.selected_id = message_id

    @property
    def forking(self) -> bool:
        return self.compose_mode.forking

    @property
    def editing_id(self) -> str | None:
        return self.compose_mode.editing_id

    # ------------------------------------------------------------------ opening

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        keep_mount_styles(self, event)

    def on_mount(self) -> None:
        self.watch(self.messages, "empty", self._show_empty_hint)
        preview = self.opener.wait_for_preview()
        if preview is None:
            self.opener.join()
            self._conversation_read()
            return
        self.messages.set_messages(preview.items)
        self.header.profile = profile_badge(preview.conversation.profile)
        self.header.title = preview.conversation.title
        self.composer.focus()
        self.call_after_refresh(self.opener.preview_painted)
        self.run_worker(self._read_after_preview(), name="open-conversation", group="open")

    async def _read_after_preview(self) -> None:
        await self.opener.join_async()
        self._conversation_read()

    def _conversation_read(self) -> None:
        """The start conversation is read: show it and start what waited for it."""
        if self.services.settings_ready:
            self.conversation_settings.show_configured_model()
        else:  # the model badge needs validated settings: the app validates after this frame
            signal = self.app.settings_validated_signal  # type: ignore[attr-defined]
            signal.subscribe(self, self._settings_validated)
        error = self.opener.take_error()
        if isinstance(error, StorageError):
            self.notify(str(error), severity="error", title="Could not open the conversation")
            self.state.new(self.opener.profile)
        elif error is not None:
            raise error
        self.presenter.show_conversation(defer_tree=True)
        self.composer.focus()
        self.composer_ready = True
        self.conversation_open = True  # its watcher sends a draft that waited
        self.set_interval(FOLLOW_S, self._follow_space, name="follow-space")
        if self.services.settings_ready:
            self.call_after_refresh(self._warm_up)

    def _follow_space(self) -> None:
        """The screen's timer: what others wrote, then a message of this chat in line."""
        self.follower.poll()
        self.host_queue.tick()

    def _settings_validated(self, settings: object) -> None:
        """The launch validated the settings after this screen appeared: the model badge,
        then the agent stack (importing both at once would slow both down)."""
        self.conversation_settings.show_configured_model()
        self._warm_up()

    @work(group="warm-up", exit_on_error=False)
    async def _warm_up(self) -> None:
        """After the first paint, off the event loop: import the agent stack (then the
        panels and the count that need it can show), then build the chat model (the provider
        stack's imports, its HTTP client), so the first turn starts at once. Both run in
        daemon threads: quitting meanwhile does not wait for them (:mod:`~weaver_tui.core.daemon_work`)."""
        try:
            await in_daemon_thread(self._import_agent_stack, "weaver-warm-up-imports")
            self.agents_ready = True
            await in_daemon_thread(self._build_model, "weaver-warm-up-model")
            self._prepare_turns()
            # the renderer's first-use setup, before the first reply's (the warm-up is over
            # once the renderer is warm too)
            await in_daemon_thread(render_warm_up.run, "weaver-render-warm-up")
        finally:  # the launch paused the collector for this (weaver_tui.core.heap)
            self.app.heap_settled()  # type: ignore[attr-defined]

    def _import_agent_stack(self) -> None:
        self.services.import_runtime()
        import_first_turn_modules()
        warm_profile_modules(self.state.profile)

    def _build_model(self) -> None:
        """The chat model, once (see Services.model). A model that cannot be built is said
        by the turn that needs it."""
        from agents.errors import WeaverError

        try:
            self.services.model  # noqa: B018 - built here, once (see Services.model)
        except WeaverError as exc:
            logger.info("chat model not built at warm-up", extra={"error": exc.user_message})

    def _prepare_turns(self) -> None:
        """The warm-up's last step, on the event loop: the runtime the first turn uses."""
        self.run_worker(self.turns.prepare(), group="warm-up", exit_on_error=False)

    async def on_unmount(self) -> None:
        await self.opener.close()  # closed while a long conversation was still being read
        self.state.settle()  # a checked-out branch is remembered before the store can close
        await self.turns.aclose()
        await self.space_host.aclose()
        self.follower.close()
        self.host_queue.close()

    # ------------------------------------------------------------------ the status

    def _show_empty_hint(self, empty: bool) -> None:
        """The hint over the transcript shows exactly while no message does (a reply that
        streams into an empty view hides it at its first row)."""
        self.empty_hint.display = empty

    def watch_conversation_open(self, is_open: bool) -> None:
        if is_open:
            self.sender.send_pending()

    def watch_agents_ready(self, ready: bool) -> None:
        """The warm-up is done: count the context, mount the panel that waited for the agent
        modules (and show the path through its view), send a draft that waited for it."""
        if not ready:
            return
        self.local_models.start()
        self.steering.update_count()
        if self.state.traits.participants:
            self.panels.show_for_conversation()
            self.presenter.show_path()
        else:
            self.panels.show_pending_count(self.features.pending_count())
        self.sender.send_pending()

    def watch_running(self, running: bool) -> None:
        if not running:
            self.sender.send_pending()

    # ------------------------------------------------------------------ showing

    def show_conversation(self, *, defer_tree: bool = False) -> None:
        self.presenter.show_conversation(defer_tree=defer_tree)

    def show_path(self, *, select: str | None = None) -> None:
        self.presenter.show_path(select=select)

    def on_path_changed(self, event: PathChanged) -> None:
        self.presenter.show_path(select=event.select)
        self.owned.refresh()

    def on_profile_panel_shown(self, event: ProfilePanel.Shown) -> None:
        self.owned.apply()

    def _set_profile_bindings(self, bindings: list[Binding]) -> None:
        """This screen's own bindings and the open profile's keys (a profile's own keys go
        with it when another profile opens)."""
        self._bindings = merged_bindings(type(self)._merged_bindings, bindings)
        self.refresh_bindings()

    def profile_commands(self) -> list[KeyAction]:
        """The palette's entries for the open profile's own keys."""
        return self.owned.commands()

    def action_profile_key(self, index: int) -> None:
        self.run_worker(self.owned.run_key(index), group="profile-key")

    def on_header_stale(self, event: HeaderStale) -> None:
        self.presenter.update_header()

    def on_context_window_known(self, event: ContextWindowKnown) -> None:
        self.steering.update_count()

    # ------------------------------------------------------------------ app-level actions

    def action_cancel_reply(self) -> None:
        """Stop the running reply; with none running, leave edit or fork mode."""
        if self.turns.cancel():
            return
        self.action_leave_mode()

    def _header_follows(self) -> None:
        """What follows the open conversation with the header: the AGENTS.md badge, and the
        messages held there."""
        self.agents_md.refresh()
        self.held.follow_conversation()

    def action_steer_turn(self) -> None:
        self.turn_steer.steer()

    def action_toggle_project_instructions(self) -> None:
        self.agents_md.toggle()

    def on_chat_header_agents_md_clicked(self, event: ChatHeader.AgentsMdClicked) -> None:
        self.agents_md.toggle()

    def action_leave_mode(self) -> None:
        """Leave edit or fork mode: the composer and the path as they were before."""
        if not self.compose_mode.active:
            return
        if self.editing_id is not None:
            self.composer.clear()
        self.compose_mode.clear()
        self.presenter.show_path()

    def action_retry(self) -> None:
        if (user_id := self.retry_user_id) is not None:  # back past its patches: files too?
            self.branching.go_back(user_id, lambda: self.start_turn(user_id))

    def action_toggle_tree(self) -> None:
        self.pane_fit.toggle_tree(self.tree, self.composer)

    def action_toggle_tool_pane(self) -> None:
        self.pane_fit.toggle_side(self.query_one("#side-pane"), self.focused, self.composer)

    def on_resize(self, event: events.Resize) -> None:
        """Hide the side panes on a narrow terminal, bring them back on a wide one."""
        focused = self.focused
        for pane in self.pane_fit.fit(self, event.size.width):
            if focused is not None and (pane is focused or pane in focused.ancestors):
                self.composer.focus()

    def open_conversation(self, conversation_id: str, message_id: str | None = None) -> None:
        self.switcher.open(conversation_id, message_id)

    def on_conversation_requested(self, event: ConversationRequested) -> None:
        self.switcher.open(event.conversation_id, event.message_id)

    def action_new_conversation(self) -> None:
        self.switcher.new()

    def action_open_conversations(self, search: bool = False) -> None:
        self.switcher.choose(search)

    def action_search_conversations(self) -> None:
        """The conversations list with the cursor in its search field."""
        self.switcher.choose(search=True)

    def action_switch_profile(self) -> None:
        self.switcher.switch_profile()

    def action_switch_model(self) -> None:
        self.conversation_settings.switch_model()

    def action_set_instructions(self) -> None:
        self.conversation_settings.edit_instructions()

    def action_use_template(self) -> None:
        self.conversation_settings.use_template()

    def action_attach_file(self) -> None:
        self.conversation_settings.attach_file()

    def action_compose_in_editor(self) -> None:
        """Open the draft in the editor once the composer has taken the keys typed before
        this one (a key binding runs at once; the keys wait in the composer's queue)."""
        self.composer.call_later(self.conversation_settings.compose_in_editor)

    def action_export_conversation(self) -> None:
        self.saver.export_conversation()

    def action_write_space_record(self) -> None:
        self.saver.write_space_record()

    async def action_on_widget(self, owner: str, action: str) -> None:
        """Run ``action`` of the chat widget of type ``owner``: one of its keys that works from
        anywhere on the chat (see :func:`weaver_tui.keymap.reach_from_anywhere`)."""
        if (widget := self._widget_of_type(owner)) is not None:
            await widget.run_action(action)

    def _widget_of_type(self, owner: object) -> Widget | None:
        """The chat widget of type ``owner``, remembered while it stays on this screen: the
        footer asks for it with every binding check (each focus change, each refresh of the
        bindings), and a query walks the whole screen."""
        remembered = self._owners.get(str(owner))
        if remembered is not None and remembered.is_attached and remembered.screen is self:
            return remembered
        found = self.query(str(owner))
        widget = found.first() if found else None
        if widget is not None:
            self._owners[str(owner)] = widget
        return widget

    def action_save_artifacts(self) -> None:
        """Save the selected reply's artifacts (else the latest on the path's) as files."""
        self.saver.save_artifacts(self.selected_id)

    # ------------------------------------------------------------------ profile panel and features

    @property
    def space_view(self) -> str | None:
        return self.panels.view

    @property
    def profile_panel(self) -> Widget | None:
        return self.panels.panel

    @property
    def demo(self) -> DemoPlayer | None:
        return self.features.demo

    @property
    def demo_pause_s(self) -> float:
        return self.features.demo_pause_s

    @demo_pause_s.setter
    def demo_pause_s(self, seconds: float) -> None:
        self.features.demo_pause_s = seconds

    def project_dir(self) -> Path:
        return self.panels.project_dir()

    def _turns_folder(self) -> Path:
        """The folder this screen's turns work in (``--project-root``, else the conversation's
        own), where their patches were applied and so where undo and redo write."""
        return Path(self.project_root) if self.project_root else self.panels.project_dir()

    def space_panel(self) -> SpacePanel | None:
        return self.panels.space_panel()

    def project_label(self) -> ProjectRootLabel | None:
        return self.panels.project_label()

    def pending_review(self) -> PendingReview | None:
        return self.features.pending_review()

    def action_play_demo(self) -> None:
        self.features.play_demo()

    def action_show_remembered(self) -> None:
        self.features.show_remembered()

    def action_show_trace(self) -> None:
        self.features.show_trace(self.branching.selected_or_leaf())

    @work(group="space-host", exclusive=True, exit_on_error=False)
    async def action_invite_participants(self) -> None:
        """Serve this space (once) and show the participants' links."""
        from weaver_tui.screens.invite import InviteScreen

        if not self.space_host.can_invite():
            self.notify("The agents are still loading; try again in a moment.")
            return
        invitation = await self.space_host.invite()
        if invitation is not None:
            self.app.push_screen(InviteScreen(invitation.lines))

    @work(group="space-host", exclusive=True, exit_on_error=False)
    async def action_close_space(self) -> None:
        """Close the shown conversation's space (never another's): stop serving it and revoke
        its links, naming the conversation."""
        title, closed = await self.space_host.close_shown()
        links = f"{closed} link{'s' if closed != 1 else ''}"
        self.notify(
            f"Closed the shared space of “{title}”: {links} revoked."
            if closed
            else f"“{title}” has no shared-space links open."
            if title
            else "No conversation is open."
        )

    def action_answer_tool_approval(self) -> None:
        self.approvals.ask()

    def action_show_mcp_servers(self) -> None:
        self.mcp_switches.show()

    def on_channel_tabs_view_changed(self, event: ChannelTabs.ViewChanged) -> None:
        self.panels.view = event.view
        if self.panels.viewer() is not None:
            self.tools.clear()  # the agent's tool calls are not a reader's to see
        if not self.presenter.tree_pending:
            self.presenter.reload_tree()
        if not self.running:
            self.presenter.show_path()
        elif self.turn is not None:  # a reply is streaming: filter it by the new view at once
            self.turn.reshow(self.panels.visible_items())

    # ------------------------------------------------------------------ branching

    def flip_version(self, message_id: str, delta: int) -> bool:
        return self.branching.flip_version(message_id, delta)

    def on_message_view_typed_ahead(self, event: MessageView.TypedAhead) -> None:
        """A key typed in the message view that belongs in the message being written."""
        composer = self.composer
        composer.focus()
        composer.move_cursor(composer.document.end)
        composer.insert(event.character)

    @on(Composer.Changed, "#composer")
    def _composing(self, event: Composer.Changed) -> None:
        self.messages.composing = bool(event.text_area.text.strip())
        self.slash.changed(event.text_area.text)

    def on_answer_requested(self, event: AnswerRequested) -> None:
        self.start_turn(event.user_message_id, continue_from=event.continue_from)

    def on_resume_requested(self, event: ResumeRequested) -> None:
        self.answer(event.user_message_id, resume=(event.record_id, event.value))

    def action_undo_patch(self) -> None:
        self.file_rewind.undo_last()

    def action_redo_patch(self) -> None:
        self.file_rewind.redo()

    # ------------------------------------------------------------------ context

    def action_pin_in_context(self) -> None:
        self.steering.toggle_mark(self.branching.selected_or_leaf(), "pinned")

    def action_leave_out_of_context(self) -> None:
        self.steering.toggle_mark(self.branching.selected_or_leaf(), "excluded")

    def action_toggle_auto_summary(self) -> None:
        self.auto_summary.toggle_for_conversation()

    def action_summarise_older(self) -> None:
        if self.running:
            self.notify("Wait for the reply to finish first.")
        elif self.state.leaf_id is None:
            self.notify("Nothing to summarise yet.")
        else:
            self.steering.summarise(self.state.leaf_id)

    # ------------------------------------------------------------------ sending

    def take_draft(self, typed_ahead: str, *, send: bool) -> None:
        """Put what was typed before this screen was in (at the launch frame) in front of
        what the composer holds; send it as soon as the chat can if Enter was pressed."""
        self.draft_pending = False
        composer = self.composer
        draft = typed_ahead + composer.text
        if draft.strip():
            composer.set_draft(draft)
        self.refresh_bindings()
        if send:
            self.sender.send_when_ready()

    @on(Composer.Submitted)
    def send(self, event: Composer.Submitted) -> None:
        if not self.slash.submitted(event.text):
            self.sender.send(event.text)

    def start_turn(self, user_message_id: str, continue_from: str | None = None) -> None:
        """Answer ``user_message_id`` again (regenerate / retry; or continue the reply
        ``continue_from``): show its path, run the turn."""
        if self.running:
            self.notify("A reply is still being written; press Esc to cancel it first.")
            return
        self.presenter.load_tree()
        self.state.leaf_id = user_message_id
        self.presenter.show_path()
        self.answer(user_message_id, continue_from=continue_from)

    def answer(
        self,
        user_message_id: str,
        resume: tuple[str, Any] | None = None,
        continue_from: str | None = None,
    ) -> Worker[None]:
        """Start the ``turn`` worker (see :class:`~.turn_runner.TurnRunner`), which asks the
        chat's controller for the turn; when another process is answering in this
        conversation the runtime refuses it and the worker says so in a notification."""
        self.retry_user_id = None
        return self.turns.start(user_message_id, resume, continue_from)

    async def hold(self, seconds: float, busy: str) -> bool:
        """Wait ``seconds`` as a reply would (Esc ends it early; ``False`` if it did)."""
        return await self.turns.hold(seconds, busy)

    def on_turn_ended(self, event: TurnEnded) -> None:
        """Offer the retry of a failed or cancelled reply; open the review of a patch the
        turn proposed at once; show the path of a conversation with participants again
        through the chosen view (deliveries as the agent's messages, and only what that view
        may read)."""
        outcome = event.outcome
        if outcome.status == "error":
            self.notify(
                f"{outcome.error} Press F5 (or “Retry”) to try again.",
                severity="error",
                title="The reply failed",
            )
        if outcome.status in RETRYABLE:
            self.retry_user_id = event.user_message_id
        self.steering.turn_ended()
        self.presenter.update_header()
        self.owned.refresh()
        if self.state.traits.participants and self.agents_ready:
            if self.panels.viewer() is not None and not self.presenter.tree_pending:
                self.presenter.reload_tree()  # records whose audience was settled late
            self.presenter.show_path()
        pending = self.features.pending_count()
        self.panels.show_pending_count(pending)
        if pending:
            self.features.review_patch()
        elif outcome.status != "error":
            self.approvals.ask(quiet=True)
        self.turn_steer.turn_ended()
        self.held.turn_ended(outcome)

    def on_queued_strip_edit(self, event: QueuedStrip.Edit) -> None:
        self.held.edit(event.key)

    def on_queued_strip_drop(self, event: QueuedStrip.Drop) -> None:
        self.held.drop(event.key)

    def on_tokens_arrived(self, event: TokensArrived) -> None:
        self.turns.drain(event.message_id)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place unexpected worker failures land: log them, say one sentence."""
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        logger.error("worker failed", exc_info=error, extra={"worker": event.worker.name})
        sentence = getattr(error, "user_message", None) or f"Something went wrong: {error}."
        if event.worker.group == "turn":
            self.turns.failed()
            if self.state.leaf_id is not None:
                self.retry_user_id = self.state.nearest_user(self.state.leaf_id)
            self.notify(sentence, severity="error", title="The reply failed")
        elif event.worker.group != "warm-up":
            self.notify(sentence, severity="error")

    def _widget_allows(self, owner: object, action: object) -> bool | None:
        """What the widget of type ``owner`` says of its ``action`` (``False``: none here)."""
        widget = self._widget_of_type(owner)
        return False if widget is None else widget.check_action(str(action), ())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.conversation_open:
            return None  # shown, unavailable for the moment the rest of it is read
        if action == "compose_in_editor" and self.draft_pending:
            return None
        if action == "on_widget":
            return self._widget_allows(*parameters)
        if action in PROFILE_ACTIONS:
            return self.features.check(action)
        if action == "cancel_reply":
            return self.running
        if action == "leave_mode":
            return not self.running and self.compose_mode.active
        if action == "retry":
            return self.retry_user_id is not None and not self.running
        return True
