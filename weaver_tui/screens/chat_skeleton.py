"""The chat screen's first frame on launch, drawn before the chat screen itself is imported.

The real :class:`~weaver_tui.screens.chat.screen.ChatScreen` needs the message view, the conversation
tree, the profile panels, the store and the reopened conversation: about 0.2 s of imports and
work before it can paint. On launch the app shows this screen first instead: the same layout
(the ids ``themes/app.tcss`` places, so the panes have their sizes and colours), the header, an empty
message area and tree pane, the empty tool pane's words (as text), the footer's keys and a
real composer that has the focus, so typing starts at once. Right after the first paint the app imports and opens the
chat screen and swaps it in, carrying over whatever was typed (see ``WeaverApp._finish_launch``).

Nothing here can act on a conversation: the chat keys show as unavailable until the chat screen
takes over a moment later. Enter keeps the draft and asks for it to be sent: the chat screen
sends it as soon as it can (``ChatScreen.take_draft``).

Keys typed before the composer has the focus (while Python and Textual start) reach this screen
itself, not the composer; :meth:`ChatSkeleton.on_key` hands them to it. They were typed while
the terminal was still in line mode, where Enter arrives as a line feed (Ctrl+J): among those
early keys it sends, as the Enter it was.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from weaver_tui.keymap import bindings_for
from weaver_tui.screens.chat.pane_fit import PaneFit
from weaver_tui.screens.chat.styled_at_mount import keep_mount_styles
from weaver_tui.widgets.chat_header import ChatHeader
from weaver_tui.widgets.composer import Composer
from weaver_tui.widgets.footer import WeaverFooter

_TOOL_PANE = "[b]Tools[/b]\nNo tool has run in this turn."
"""What the empty tool pane says (``ToolStatusPane``; a test compares the two frames)."""


EARLY_ENTER_KEYS = frozenset({"enter", "ctrl+j", "ctrl+m"})
"""Enter as it arrives when typed before the app put the terminal in raw mode (a line feed)."""

SEND_WHEN_READY_SENTENCE = "Opening the conversation; your message goes as soon as it is open."
"""Said when Enter is pressed before the chat can send (the message is sent once it can)."""


class ChatSkeleton(Screen[None]):
    """Header, empty tree | empty messages + composer | tool pane, footer."""

    BINDINGS: ClassVar[list[BindingType]] = [*bindings_for("chat")]
    AUTO_FOCUS = "#composer"

    def __init__(self, profile: str = "") -> None:
        super().__init__()
        self.profile = profile
        self._pane_fit = PaneFit()
        self._composer = Composer(id="composer")
        self.send_requested = False
        """Enter was pressed here: the chat screen sends the draft once it can."""

    def compose(self) -> ComposeResult:
        header = ChatHeader()
        header.profile, header.title, header.provider = self.profile, "", ""
        header.branch = None  # not known before the conversation is read
        yield header
        with Horizontal(id="chat-body"):
            yield Static(id="tree-pane", markup=False)
            with Vertical(id="chat-main"):
                yield Static(id="messages", markup=False)
                yield self._composer
            with Vertical(id="side-pane"):
                yield Static(Content.from_markup(_TOOL_PANE), id="tool-pane-placeholder")
        yield WeaverFooter()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        keep_mount_styles(self, event)

    def on_resize(self, event: events.Resize) -> None:
        """The panes step aside on a narrow terminal, as on the chat screen (``pane_fit``)."""
        self._pane_fit.fit(self, event.size.width)

    @property
    def draft(self) -> str:
        """What the user typed before the chat screen arrived (readable after the swap too)."""
        return self._composer.text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None  # shown, but unavailable until the chat screen is in

    def on_key(self, event: events.Key) -> None:
        """A key that reached the screen rather than the composer (it came before the composer
        had the focus; the composer keeps every printable key and Enter it sees): typed into
        the composer, or for Enter (a line feed, typed in line mode), sent."""
        composer = self._composer
        if event.key in EARLY_ENTER_KEYS:
            event.stop()
            composer.submit()
        elif event.is_printable and event.character:
            event.stop()
            composer.move_cursor(composer.document.end)
            composer.insert(event.character)

    @on(Composer.Submitted)
    def _keep_the_draft(self, event: Composer.Submitted) -> None:
        event.stop()
        event.composer.set_draft(event.text)
        if not self.send_requested:
            self.notify(SEND_WHEN_READY_SENTENCE)
        self.send_requested = True
