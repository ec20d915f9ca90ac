"""The chat screen's profile wiring: the panel above the composer and what it drives, all
read from the open profile's traits (:class:`agents.profile.ProfileTraits`), never its name.

:func:`weaver_tui.profile_panels.panel_for` gives the panel of the declared kind (none for
most). With participants: F2/F8 choose who speaks and to whom (the meta of the next user
record), F3 which view the message view shows (everything, the shared channel, one
participant's), and a new conversation stores its participants. With patch review: a patch the
agent proposed pauses the turn; the review opens when the turn ends (and on F4 or a click on
the project label later), and the decision resumes the paused turn. A profile with a demo plays
it from the palette. Mixed into :class:`~weaver_tui.screens.chat.ChatScreen`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

if TYPE_CHECKING:
    from textual.widget import Widget

    from agents.patch_review.review import PendingReview
    from weaver_tui.screens.chat_host import ChatHost as _Host
    from weaver_tui.screens.demo_player import DemoPlayer
    from weaver_tui.widgets.channel_tabs import ChannelTabs
    from weaver_tui.widgets.mediator_panel import MediatorPanel
    from weaver_tui.widgets.message_view import MessageItem
    from weaver_tui.widgets.project_root_label import ProjectRootLabel
    from weaver_tui.widgets.speaker_bar import SpeakerBar
else:
    _Host = object  # the type checker sees the chat screen's surface; Python a plain mixin

logger = logging.getLogger(__name__)

PROFILE_ACTIONS = frozenset(
    {
        "cycle_speaker",
        "cycle_audience",
        "cycle_view",
        "review_patch",
        "play_demo",
        "show_remembered",
    }
)

DEMO_PAUSE_S = 1.5
"""The pause between a demo's turns (long enough to read the last delivery)."""


def profile_bindings() -> list[Binding]:
    """The chat-screen keys of the profile panels (from :data:`keymap.PROFILE_KEYS`)."""
    from weaver_tui.keymap import PROFILE_KEYS

    return [
        Binding(k.key, k.action, k.command, show=k.show, priority=k.priority, tooltip=k.description)
        for k in PROFILE_KEYS
        if k.key and k.action
    ]


class ChatProfiles(_Host):
    """Profile panels for :class:`~weaver_tui.screens.chat.ChatScreen`.

    The speakers' panel and views and the patch review need agent modules (LangChain types), so
    until the warm-up after the first paint has imported them (``agents_ready``) the screen
    shows the plain path and no speakers' panel; :meth:`agents_loaded` completes the picture.
    """

    mediator_view: str | None = None
    profile_panel: Widget | None = None
    """The panel shown above the composer (set by ``ChatScreen.show_panel``)."""
    agents_ready: bool = False
    demo: DemoPlayer | None = None
    """The demo being played (or the last one played) on this screen."""
    demo_pause_s: float = DEMO_PAUSE_S

    def warm_profile_modules(self) -> None:
        """Import the open profile, and with it what its panel needs (in the warm-up thread)."""
        from agents.profiles import UnknownProfileError, get_profile

        try:
            get_profile(self.state.profile)
        except UnknownProfileError as exc:  # said when a turn asks for it
            logger.warning("profile not loaded", extra={"error": str(exc)})

    def agents_loaded(self) -> None:
        """The warm-up is done: mount what waited for it."""
        self.agents_ready = True
        self.update_context_count()
        if self.state.traits.participants:
            self.mount_profile_panel()
            self.show_path()
        else:
            self.show_pending_count()
        self.send_pending()

    # ------------------------------------------------------------------ the panel

    def mount_profile_panel(self) -> None:
        """Show the open profile's panel (or none), set up for the open conversation."""
        from weaver_tui.profile_panels import PanelOptions, panel_for

        traits = self.state.traits
        self.mediator_view = None
        self.composer.speaker = "You"
        if traits.participants and not self.agents_ready:
            self.show_panel(None)  # mounted by agents_loaded()
            return
        participants = self.participants()
        pending = 1 if self.agents_ready and self.pending_review() else 0
        if participants:
            self.composer.speaker = participants[0]
        if traits.panel == "speakers" and (panel := self.mediator_panel()) is not None:
            # another conversation of the same profile: reset the panel in place
            panel.set_participants(participants, participants[0] if participants else None)
            panel.channel_tabs.set_view(None)
            panel.audience_bar.set_shared(False)
            return
        if traits.panel == "project" and (label := self.project_label()) is not None:
            label.set_root(self.project_dir(), started_in=self.launch_dir())  # in place
            label.set_pending(pending)
            return
        options = PanelOptions(
            project_root=self.project_dir(), participants=participants, pending_patches=pending
        )
        self.show_panel(panel_for(traits.panel, options))
        if (label := self.project_label()) is not None:
            label.set_root(self.project_dir(), started_in=self.launch_dir())

    def launch_dir(self) -> Path:
        """The folder the app works in for new conversations (``--project-root`` or here)."""
        return self.project_root or Path.cwd()

    def root_note(self) -> str:
        """A sentence naming the project root the open conversation keeps, and the app's own
        folder when that is another one; empty when the conversation keeps none."""
        from weaver_tui.widgets.project_root_label import same_folder, shown_root

        conversation = self.state.conversation
        stored = conversation.meta.get("project_root") if conversation else None
        if not stored:
            return ""
        root, here = Path(stored), self.launch_dir()
        if same_folder(root, here):
            return f"It works in {shown_root(root)}."
        return (
            f"It works in {shown_root(root)}, its own project root, not {shown_root(here)} "
            "where weaver started; Ctrl+N starts a conversation there."
        )

    def participants(self) -> tuple[str, ...]:
        """The open conversation's participants (those it stored, else the profile's default;
        empty for a profile with one user)."""
        traits = self.state.traits
        if not traits.participants:
            return ()
        conversation = self.state.conversation
        stored = tuple(conversation.meta.get("participants") or ()) if conversation else ()
        return stored or traits.participants

    def project_dir(self) -> Path:
        conversation = self.state.conversation
        stored = conversation.meta.get("project_root") if conversation else None
        return Path(stored) if stored else (self.project_root or Path.cwd())

    def mediator_panel(self) -> MediatorPanel | None:
        from weaver_tui.widgets.mediator_panel import MediatorPanel

        panel = self.profile_panel
        return panel if isinstance(panel, MediatorPanel) else None

    def project_label(self) -> ProjectRootLabel | None:
        from weaver_tui.widgets.project_root_label import ProjectRootLabel

        panel = self.profile_panel
        return panel if isinstance(panel, ProjectRootLabel) else None

    def new_conversation_meta(self) -> dict[str, Any]:
        """Meta for a conversation created by its first message: the profile's participants;
        the project root of a profile that works on one (the folder the app was started in
        unless ``--project-root`` named one), so the conversation reopened from another folder
        still works on its own."""
        traits = self.state.traits
        meta: dict[str, Any] = {}
        if traits.participants:
            meta["participants"] = list(traits.participants)
        if traits.project_root:
            meta["project_root"] = str((self.project_root or Path.cwd()).resolve())
        return meta

    def user_meta(self, text: str) -> dict[str, Any] | None:
        """The meta of the user record about to hold ``text``: with a speakers' panel the
        message is a :class:`~agents.shared_space.events.UserMessageEvent` (the speaker, the
        audience chosen in the panel), stored as the event's own record meta."""
        panel = self.mediator_panel()
        if panel is None or panel.speaker is None:
            return None
        from agents.shared_space.events import SHARED, UserMessageEvent

        event = UserMessageEvent(
            sender=panel.speaker, content=text, visibility=SHARED if panel.shared else None
        )
        return event.record_meta()

    def visible_items(self) -> list[MessageItem]:
        """The active path as the message view shows it (through the chosen view, for a
        conversation with participants)."""
        items = self.state.path_items()
        if not self.state.traits.participants or self.state.leaf_id is None:
            return items
        if not self.agents_ready:  # the views need the agent modules
            return items
        try:
            return self._view_rows({item.id: item for item in items})
        except ValueError as exc:
            logger.warning("unknown view", extra={"error": str(exc)})
            return items

    def live_row_filter(self) -> Callable[[str], MessageItem | None] | None:
        """How a running turn's records show in the chosen view of a conversation with
        participants (``None``: as they are). The model's view shows every record, deliveries as the mediator's message; a
        participant's or the shared view shows only what that reader may see, so another
        person's private reply never flashes by while the turn streams."""
        if not self.state.traits.participants or not self.agents_ready:
            return None

        def row_for(record_id: str) -> MessageItem | None:
            try:
                rows = self._view_rows({record_id: self.state.item(record_id)})
            except ValueError:  # a view this space does not have: show the record as it is
                return self.state.item(record_id)
            row = next((item for item in rows if item.id == record_id), None)
            if row is None and self.mediator_view is None:
                return self.state.item(record_id)  # the model's view: still streaming
            return row

        return row_for

    def _view_rows(self, items: dict[str, MessageItem]) -> list[MessageItem]:
        """The active path through the chosen view (``items``: rows already built by id)."""
        from weaver_tui.profile_panels import items_for_view

        records = [self.state.index.get(i) for i in self.state.path_ids()]
        return items_for_view(records, self.mediator_view, self.participants(), items)

    # ------------------------------------------------------------------ speakers' keys

    def action_cycle_speaker(self) -> None:
        if (panel := self.mediator_panel()) is not None:
            panel.cycle_speaker()

    def action_cycle_audience(self) -> None:
        if (panel := self.mediator_panel()) is not None:
            panel.cycle_audience()

    def action_cycle_view(self) -> None:
        if (panel := self.mediator_panel()) is not None:
            panel.cycle_view()

    def on_speaker_bar_speaker_changed(self, event: SpeakerBar.SpeakerChanged) -> None:
        self.composer.speaker = event.name

    def on_channel_tabs_view_changed(self, event: ChannelTabs.ViewChanged) -> None:
        self.mediator_view = event.view
        if not self.running:
            self.show_path()
        elif self.turn is not None:  # a reply is streaming: filter it by the new view at once
            self.turn.reshow(self.visible_items())

    # ------------------------------------------------------------------ patch review

    def pending_review(self) -> PendingReview | None:
        conversation = self.state.conversation
        if not self.state.traits.patch_review or conversation is None:
            return None
        from agents.patch_review.review import find_pending_review

        try:
            return find_pending_review(self.state.store, conversation.id, self.state.leaf_id)
        except Exception as exc:  # a damaged record must not break the chat
            logger.warning("pending review not readable", extra={"error": str(exc)})
            return None

    def show_pending_count(self) -> None:
        if (label := self.project_label()) is not None:
            label.set_pending(1 if self.pending_review() else 0)

    def action_review_patch(self) -> None:
        """Open the review of the patch the paused turn waits on; the decision resumes it."""
        from agents.patch_review.review import resume_value
        from weaver_tui.screens.patch_review import PatchDecision, PatchReviewScreen

        pending = self.pending_review()
        if pending is None:
            self.notify("No patch is waiting for review on this branch.")
            return
        if self.running:
            return

        def decided(decision: PatchDecision | None) -> None:
            if decision is None or not decision.resumes_turn:
                return
            if decision.message:
                self.notify(decision.message)
            self.run_turn(
                self.state.nearest_user(pending.record_id) or pending.record_id,
                resume=(pending.record_id, resume_value(decision.decision)),  # type: ignore[arg-type]
            )

        self.app.push_screen(PatchReviewScreen(pending.patch, self.project_dir()), decided)

    def on_project_root_label_review_requested(
        self, event: ProjectRootLabel.ReviewRequested
    ) -> None:
        self.action_review_patch()

    # ------------------------------------------------------------------ demo

    def demo_module(self) -> str | None:
        """The demo the palette plays: the open profile's, else the first registered one's."""
        from agents.profiles import PROFILE_NAMES, UnknownProfileError, get_traits

        if self.state.traits.demo:
            return self.state.traits.demo
        for name in PROFILE_NAMES:
            try:
                if demo := get_traits(name).demo:
                    return demo
            except UnknownProfileError:
                continue
        return None

    def action_show_remembered(self) -> None:
        """List what the profile remembers across conversations; Delete forgets an item."""
        from weaver_tui.screens.remembered import RememberedScreen

        memory = self.state.traits.memory
        if memory is None:
            return
        data_dir = Path(self.services.settings.data_dir)
        self.app.push_screen(RememberedScreen(memory, data_dir))

    def action_play_demo(self) -> None:
        """Open a new conversation for the demo and play its turns here, live (Esc stops it)."""
        from weaver_tui.screens.demo_player import DemoPlayer

        if self.running or (self.demo is not None and self.demo.active):
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return
        if not self.agents_ready:
            self.notify("The agents are still loading; try again in a moment.")
            return
        module = self.demo_module()
        if module is None:
            self.notify("No profile has a demo to play.")
            return
        self.demo = player = DemoPlayer(self, self.demo_pause_s, module)
        self.run_worker(player.play(), name="demo", group="demo", exit_on_error=False)

    def after_turn(self) -> None:
        """A turn ended: a patch it proposed opens for review at once; the path of a
        conversation with participants is shown again through the chosen view (deliveries as
        the agent's messages, and only what that view may read)."""
        if self.state.traits.participants and self.agents_ready:
            self.show_path()
        self.show_pending_count()
        if self.pending_review() is not None:
            self.action_review_patch()

    def check_profile_action(self, action: str) -> bool:
        if action == "review_patch":
            return self.state.traits.patch_review and not self.running
        if action == "play_demo":
            return not self.running
        if action == "show_remembered":
            return self.state.traits.memory is not None
        return bool(self.state.traits.participants)
