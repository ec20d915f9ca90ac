"""The open profile's panel above the composer and the view it chooses, all read from the
profile's traits (:class:`agents.profile.ProfileTraits`), never its name.

:func:`weaver_tui.profile_panels.panel_for` gives the panel of the declared kind (none for
most). With participants: F2/F8 choose who speaks and to whom (the meta of the next user
record), F3 which view the message view shows (everything, the shared channel, one
participant's), and a new conversation stores its participants. With a project root: the
label naming the folder the conversation works in.

:class:`ProfilePanel` is the ``#profile-panel`` slot itself, a widget with the panel's keys
(F2, F8, F3, and F4 for the patch review the project label announces): they act when the
panel has the focus, and the chat screen binds them too so that they work from anywhere on
the chat (the composer has the focus while you choose who speaks).

The speakers' panel and the views need agent modules (LangChain types), so until the warm-up
after the first paint has imported them (``agents_ready``) the screen shows the plain path and
no speakers' panel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message

from weaver_tui.keymap import PROFILE_PANEL, owned_bindings

if TYPE_CHECKING:
    from textual.widget import Widget

    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.chat_state.project_folder import ProjectFolder
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.widgets.message_view import MessageItem
    from weaver_tui.widgets.project_root_label import ProjectRootLabel
    from weaver_tui.widgets.space_panel import SpacePanel
    from weaver_tui.widgets.speaker_bar import SpeakerBar

logger = logging.getLogger(__name__)


class ProfilePanel(Vertical):
    """The panel and the chosen view of one chat screen.

    ``surface`` gives the composer (its speaker follows the panel), what the chat is doing and
    whether the agent modules are loaded; ``pending_patches`` returns how many patches wait for
    review and ``review_patch`` opens the review of the one waiting.
    """

    BINDINGS: ClassVar[list[BindingType]] = [*owned_bindings(PROFILE_PANEL)]

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        folder: ProjectFolder,
        *,
        pending_patches: Callable[[], int],
        review_patch: Callable[[], None],
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._surface = surface
        self._state = state
        self._folder = folder
        self._pending_patches = pending_patches
        self._review_patch = review_patch
        self.view: str | None = None
        """The view the message view shows (``None``: everything, as the model reads it)."""
        self.panel: Widget | None = None
        """The panel shown above the composer."""

    # ------------------------------------------------------------------ where it works

    def launch_dir(self) -> Path:
        """The folder the app works in for new conversations (``--project-root`` or here)."""
        return self._folder.launch_dir()

    def project_dir(self) -> Path:
        return self._folder.project_dir()

    def root_note(self) -> str:
        """A sentence naming the project root the open conversation keeps, and the app's own
        folder when that is another one; empty when the conversation keeps none."""
        from weaver_tui.widgets.project_root_label import same_folder, shown_root

        stored = self._folder.stored_root()
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
        traits = self._state.traits
        if not traits.participants:
            return ()
        conversation = self._state.conversation
        stored = tuple(conversation.meta.get("participants") or ()) if conversation else ()
        return stored or traits.participants

    def new_conversation_meta(self) -> dict[str, Any]:
        """Meta for a conversation created by its first message: the profile's participants;
        the project root of a profile that works on one (the folder the app was started in
        unless ``--project-root`` named one), so the conversation reopened from another folder
        still works on its own."""
        traits = self._state.traits
        meta: dict[str, Any] = {}
        if traits.participants:
            meta["participants"] = list(traits.participants)
        if traits.project_root:
            meta["project_root"] = str(self.launch_dir().resolve())
        return meta

    # ------------------------------------------------------------------ the panel

    class Shown(Message):
        """The panel was set up for the conversation that opened (the screen adds what the
        profile brings of its own)."""

    def show_for_conversation(self) -> None:
        """Show the open profile's panel (or none), set up for the open conversation."""
        from weaver_tui.profile_panels import PanelOptions, panel_for

        self.post_message(self.Shown())
        traits = self._state.traits
        composer = self._surface.composer
        self.view = None
        composer.speaker = "You"
        if traits.participants and not self._surface.agents_ready:
            self.show(None)  # mounted once the agents are loaded
            return
        participants = self.participants()
        pending = self._pending_patches() if self._surface.agents_ready else None
        if participants:
            composer.speaker = participants[0]
        if traits.panel == "speakers" and (panel := self.space_panel()) is not None:
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
        self.show(panel_for(traits.panel, options))
        if (label := self.project_label()) is not None:
            label.set_root(self.project_dir(), started_in=self.launch_dir())

    def show(self, panel: Widget | None) -> None:
        """Put a panel above the composer, or remove it with ``None``. The panel replaced
        stays in the DOM until its removal completes, so panels carry no ids and are found
        through :attr:`panel`."""
        self.remove_children()
        self.panel = panel
        if panel is not None:
            self.mount(panel)
        self.set_class(panel is not None, "-has-panel")

    def space_panel(self) -> SpacePanel | None:
        from weaver_tui.widgets.space_panel import SpacePanel

        return self.panel if isinstance(self.panel, SpacePanel) else None

    def project_label(self) -> ProjectRootLabel | None:
        from weaver_tui.widgets.project_root_label import ProjectRootLabel

        return self.panel if isinstance(self.panel, ProjectRootLabel) else None

    def show_pending_count(self, pending: int) -> None:
        if (label := self.project_label()) is not None:
            label.set_pending(pending)

    # ------------------------------------------------------------------ speakers and views

    def user_meta(self, text: str) -> dict[str, Any] | None:
        """The meta of the user record about to hold ``text``: with a speakers' panel the
        message is a :class:`~agents.shared_space.events.UserMessageEvent` (the speaker, the
        audience chosen in the panel), stored as the event's own record meta."""
        panel = self.space_panel()
        if panel is None or panel.speaker is None:
            return None
        from agents.shared_space.events import SHARED, UserMessageEvent

        event = UserMessageEvent(
            sender=panel.speaker, content=text, visibility=SHARED if panel.shared else None
        )
        return event.record_meta()

    # ------------------------------------------------------------------ the panel's keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The speakers' keys with participants, F4 with patch review while no reply runs;
        nothing before the conversation is read."""
        if not self._surface.conversation_open:
            return None
        traits = self._state.traits
        if action == "review_patch":
            return traits.patch_review and not self._surface.running
        if action in ("cycle_speaker", "cycle_audience", "cycle_view"):
            return bool(traits.participants)
        return True

    def action_cycle_speaker(self) -> None:
        if (panel := self.space_panel()) is not None:
            panel.cycle_speaker()

    def action_cycle_audience(self) -> None:
        if (panel := self.space_panel()) is not None:
            panel.cycle_audience()

    def action_cycle_view(self) -> None:
        if (panel := self.space_panel()) is not None:
            panel.cycle_view()

    def action_review_patch(self) -> None:
        self._review_patch()

    def on_project_root_label_review_requested(
        self, event: ProjectRootLabel.ReviewRequested
    ) -> None:
        self._review_patch()

    def on_speaker_bar_speaker_changed(self, event: SpeakerBar.SpeakerChanged) -> None:
        self._surface.composer.speaker = event.name

    def viewer(self) -> str | None:
        """The reader whose view is shown, as the store's queries take it (``None``: the
        facilitator's view of everything; ``"shared"``: the shared channel; else a
        participant's name). The tree pane, search and exports of a reader's view read only
        what that reader may read."""
        if not self._state.traits.participants or self.space_panel() is None:
            return None
        return self.view

    def empty_view_note(self) -> str | None:
        """What the message view says when the chosen view hides every message of the path
        (``None``: nothing hidden, the usual hint of an empty conversation applies)."""
        from weaver_tui.widgets.channel_tabs import SHARED_VIEW

        if self.view is None or self._state.leaf_id is None:
            return None
        if self.view == SHARED_VIEW:
            said = "Nothing in the shared channel yet: everything so far was said privately."
        else:
            said = f"Nothing in {self.view}'s view yet: so far the others spoke privately."
        return (
            f"{said}\nF3 switches the view (All shows every message, as the mediator reads them)."
        )

    def visible_items(self) -> list[MessageItem]:
        """The active path as the message view shows it (through the chosen view, for a
        conversation with participants: a reader's view holds only the rows of the records the
        store's filtered query gives for that reader)."""
        if (
            not self._state.traits.participants
            or self._state.leaf_id is None
            or not self._surface.agents_ready  # the views need the agent modules
        ):
            return self._state.path_items()
        try:
            return self._view_rows(None)
        except ValueError as exc:
            logger.warning("unknown view", extra={"error": str(exc)})
            return self._state.path_items()

    def live_row_filter(self) -> Callable[[str], MessageItem | None] | None:
        """How a running turn's records show in the chosen view of a conversation with
        participants (``None``: as they are). The model's view shows every record,
        deliveries as the mediator's message; a participant's or the shared view shows only
        what that reader may see, so another person's private reply never flashes by while
        the turn streams."""
        if not self._state.traits.participants or not self._surface.agents_ready:
            return None
        state = self._state

        def row_for(record_id: str) -> MessageItem | None:
            try:
                rows = self._view_rows(record_id)
            except ValueError:  # a view this space does not have: show the record as it is
                return state.item(record_id)
            row = next((item for item in rows if item.id == record_id), None)
            if row is None and self.view is None:
                return state.item(record_id)  # the model's view: still streaming
            return row

        return row_for

    def _view_rows(self, only: str | None) -> list[MessageItem]:
        """The active path through the chosen view, as rows (``only``: build the row of that
        record alone, the others plainly). The model's view reads the whole path; a reader's
        view reads the records it may read from the store's filtered query."""
        from weaver_tui.profile_panels import items_for_view

        state = self._state
        if self.view is None:
            records = [state.index.get(i) for i in state.path_ids()]
        else:
            records = state.reader_path(self.view)
        wanted = [r.id for r in records if only is None or r.id == only]
        items = {i: state.item(i) for i in wanted if i in state.index}
        return items_for_view(records, self.view, self.participants(), items)
