"""What a profile adds to the chat screen besides its panel, read from its traits: the review
of a patch the agent proposed, the memory it keeps across conversations, and its scripted demo.

With patch review, a patch the agent proposed pauses the turn; the review opens when the turn
ends (and on F4 or a click on the project label later), and the decision resumes the paused
turn. With memory, "Remembered" lists what it keeps. A profile with a demo plays it from the
palette (:mod:`.demo_player`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from weaver_tui.screens.chat.requests import ResumeRequested

if TYPE_CHECKING:
    from agents.patch_review.review import PendingReview
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.demo_player import DemoPlayer, DemoStage
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

PROFILE_ACTIONS = frozenset(
    {
        "play_demo",
        "show_remembered",
        "show_trace",
        "invite_participants",
        "close_space",
        "write_space_record",
    }
)
"""The palette's commands of the profile features (the panel's keys are the panel's own)."""

DEMO_PAUSE_S = 1.5
"""The pause between a demo's turns (long enough to read the last delivery)."""


def warm_profile_modules(profile: str) -> None:
    """Import ``profile``, and with it what its panel needs (in the warm-up thread)."""
    from agents.profile_registry import UnknownProfileError, get_profile

    try:
        get_profile(profile)
    except UnknownProfileError as exc:  # said when a turn asks for it
        logger.warning("profile not loaded", extra={"error": str(exc)})


class ProfileFeatures:
    """Patch review, memory and demo for one chat screen.

    ``surface`` is the screen (modal screens, notifications, the demo's worker, what it is
    doing) and ``stage`` the same screen as the demo player sees it; ``project_dir`` returns
    the folder patches apply to. The review's decision resumes the paused turn through a
    :class:`~.chat_requests.ResumeRequested`.
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        *,
        stage: DemoStage,
        project_dir: Callable[[], Path],
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._stage = stage
        self._project_dir = project_dir
        self.demo: DemoPlayer | None = None
        """The demo being played (or the last one played) on this screen."""
        self.demo_pause_s = DEMO_PAUSE_S

    def check(self, action: str) -> bool:
        """Whether one of :data:`PROFILE_ACTIONS` is available now."""
        if action == "play_demo":
            return not self._surface.running
        traits = self._state.traits
        if action in ("invite_participants", "close_space", "write_space_record"):
            return traits.seats and self._state.conversation is not None
        if action == "show_trace":
            return traits.reply_trace is not None and self._state.conversation is not None
        return traits.memory is not None

    # ------------------------------------------------------------------ patch review

    def pending_review(self) -> PendingReview | None:
        conversation = self._state.conversation
        if not self._state.traits.patch_review or conversation is None:
            return None
        from agents.patch_review.review import find_pending_review

        try:
            return find_pending_review(self._state.store, conversation.id, self._state.leaf_id)
        except Exception as exc:  # noqa: BLE001 (a damaged record must not break the chat)
            logger.warning("pending review not readable", extra={"error": str(exc)})
            return None

    def pending_count(self) -> int:
        return 1 if self.pending_review() else 0

    def review_patch(self) -> None:
        """Open the review of the patch the paused turn waits on; the decision resumes it."""
        from agents.patch_review.review import resume_value
        from weaver_tui.screens.patch_review import PatchDecision, PatchReviewScreen

        pending = self.pending_review()
        if pending is None:
            self._surface.notify("No patch is waiting for review on this branch.")
            return
        if self._surface.running:
            return

        def decided(decision: PatchDecision | None) -> None:
            if decision is None or not decision.resumes_turn:
                return
            if decision.message:
                self._surface.notify(decision.message)
            self._surface.post_message(
                ResumeRequested(
                    self._state.nearest_user(pending.record_id) or pending.record_id,
                    pending.record_id,
                    resume_value(decision.decision),  # type: ignore[arg-type]
                )
            )

        review = PatchReviewScreen(pending.patch, self._project_dir())
        self._surface.app.push_screen(review, decided)

    # ------------------------------------------------------------------ memory

    def show_remembered(self) -> None:
        """List what the profile remembers across conversations; Delete forgets an item."""
        from weaver_tui.screens.remembered import RememberedScreen

        memory = self._state.traits.memory
        if memory is None:
            return
        data_dir = Path(self._services.settings.storage.data_dir)
        screen = RememberedScreen(memory, data_dir, title_of=self._conversation_title)
        self._surface.app.push_screen(screen)

    # ------------------------------------------------------------------ trace

    def show_trace(self, message_id: str | None) -> None:
        """Open how the reply ``message_id`` was made (a user message: the reply after it)."""
        from storage.store import StorageError
        from weaver_tui.screens.reply_trace import ReplyTraceScreen

        read = self._state.traits.reply_trace
        if read is None or message_id is None:
            return
        try:
            record = self._services.store.get_message(message_id)
            if record.role == "user":
                replies = self._services.store.children(message_id, record.conversation_id)
                record = replies[-1] if replies else record
        except StorageError as exc:
            self._surface.notify(f"The reply could not be read: {exc}", severity="error")
            return
        text = read(record.meta)
        if text is None:
            self._surface.notify("This message has no trace: select a reply of this profile.")
            return
        self._surface.app.push_screen(ReplyTraceScreen(text))

    def _conversation_title(self, conversation_id: str) -> str | None:
        from storage.store import StorageError

        try:
            return self._services.store.get_conversation(conversation_id).title
        except StorageError:  # deleted since (NotFoundError), or unreadable
            return None

    # ------------------------------------------------------------------ demo

    def demo_module(self) -> str | None:
        """The demo the palette plays: the open profile's, else the first registered one's."""
        from agents.profile_registry import PROFILE_NAMES, UnknownProfileError, get_traits

        if self._state.traits.demo:
            return self._state.traits.demo
        for name in PROFILE_NAMES:
            try:
                if demo := get_traits(name).demo:
                    return demo
            except UnknownProfileError:
                continue
        return None

    def play_demo(self) -> None:
        """Open a new conversation for the demo and play its turns here, live (Esc stops it)."""
        from weaver_tui.screens.chat.demo_player import DemoPlayer

        if self._surface.running or (self.demo is not None and self.demo.active):
            self._surface.notify("Wait for the reply to finish (or press Esc) first.")
            return
        if not self._surface.agents_ready:
            self._surface.notify("The agents are still loading; try again in a moment.")
            return
        module = self.demo_module()
        if module is None:
            self._surface.notify("No profile has a demo to play.")
            return
        self.demo = player = DemoPlayer(self._stage, self.demo_pause_s, module)
        self._surface.run_worker(player.play(), name="demo", group="demo", exit_on_error=False)
