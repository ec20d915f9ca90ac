"""``MessageView``: the messages of the active path as one virtualised, streaming scroll view."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.events import Click, Key
from textual.message import Message
from textual.reactive import var

from storage.printable import printable
from weaver_tui.core.message_item import MessageItem, Status
from weaver_tui.widgets.message_view.blocks import code_of
from weaver_tui.widgets.message_view.cache import DEFAULT_WIDTH, Entry
from weaver_tui.widgets.message_view.viewport import TranscriptViewport

ACTIONS = ("fork", "edit", "regenerate", "copy")
SINGLE_KEY_ACTIONS = frozenset({"request", "copy_message", "copy_code", "toggle_thinking", "flip"})
"""The actions of the view's letter keys, which wait (shown dimmed) while a draft is typed."""


class MessageView(TranscriptViewport, can_focus=True):
    """The chat transcript: Markdown messages rendered once into cached lines, drawn lazily.

    Only what is near the viewport is ever rendered; a streaming reply re-renders just its
    unfinished last block, at most ``FRAME_INTERVAL`` apart; the view follows the bottom until
    the user scrolls up. See the package docstring for the API the chat screen uses.

    | Key(s) | Description |
    | :- | :- |
    | up, k | Select the previous message. |
    | down, j | Select the next message. |
    | [ | Ask for the previous version of the selected message. |
    | ] | Ask for the next version of the selected message. |
    | f | Ask to fork from the selected message. |
    | e | Ask to edit the selected message. |
    | r | Ask to regenerate the selected reply. |
    | y | Copy the selected message's Markdown. |
    | c | Copy the code block in view (or the last one) of the selected message. |
    | t | Unfold or fold the selected reply's thinking. |
    | end | Jump to the latest message and follow the stream again. |

    Any other printable key, and every printable key while :attr:`composing`, is typed into
    the composer: the view posts :class:`TypedAhead` and the screen hands it over.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "select_previous", "Previous message", show=False),
        Binding("down,j", "select_next", "Next message", show=False),
        Binding("left_square_bracket", "flip(-1)", "Prev version", show=False),
        Binding("right_square_bracket", "flip(1)", "Next version", show=False),
        Binding("f", "request('fork')", "Fork"),
        Binding("e", "request('edit')", "Edit"),
        Binding("r", "request('regenerate')", "Regenerate"),
        Binding("y", "copy_message", "Copy"),
        Binding("c", "copy_code", "Copy code"),
        Binding("t", "toggle_thinking", "Thinking"),
        Binding("end", "jump_to_latest", "Latest", show=False),
    ]

    DEFAULT_CSS = """
    MessageView {
        background: $surface;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-gutter: stable;
        &:focus {
            background-tint: $foreground 3%;
        }
    }
    """

    @dataclass
    class Selected(Message):
        """The user moved the message selection (keys or click)."""

        view: MessageView
        message_id: str

        @property
        def control(self) -> MessageView:
            return self.view

    @dataclass
    class VersionFlipRequested(Message):
        """The user asked for a sibling version: ``delta`` is -1 (previous) or +1 (next)."""

        view: MessageView
        message_id: str
        delta: int

        @property
        def control(self) -> MessageView:
            return self.view

    @dataclass
    class ActionRequested(Message):
        """The user asked for ``action`` ("fork", "edit", "regenerate" or "copy").

        "copy" (key ``y``) is posted after the view has put the message's Markdown on the
        clipboard, so the screen only needs to confirm it.
        """

        view: MessageView
        message_id: str
        action: str

        @property
        def control(self) -> MessageView:
            return self.view

    @dataclass
    class CodeCopied(Message):
        """``c`` put a code block of the message on the clipboard (``code`` is what was copied)."""

        view: MessageView
        message_id: str
        code: str

        @property
        def control(self) -> MessageView:
            return self.view

    @dataclass
    class LinkClicked(Message):
        """A link in a message was clicked (the view also opens it when ``open_links``)."""

        view: MessageView
        href: str

        @property
        def control(self) -> MessageView:
            return self.view

    @dataclass
    class TypedAhead(Message):
        """A printable key that is no command here (or came while a draft is being typed):
        ``character`` belongs in the composer."""

        view: MessageView
        character: str

        @property
        def control(self) -> MessageView:
            return self.view

    empty: var[bool] = var(True)
    """No message is shown (a hint over an empty transcript can watch this)."""
    composing: var[bool] = var(False, bindings=True)
    """Something is being typed in the composer: printable keys go there, the letter keys'
    commands wait (the footer shows them dimmed)."""

    def __init__(
        self,
        *,
        open_links: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.open_links = open_links
        """Open clicked links with ``app.open_url`` (``LinkClicked`` is posted either way)."""
        self._open_thinking: set[str] = set()
        """Messages whose thinking the user unfolded (kept when their rows are redrawn)."""

    # -- public API -------------------------------------------------------------------------

    @property
    def selected_message_id(self) -> str | None:
        """The id of the selected message, or ``None``."""
        return self._selected

    @property
    def following(self) -> bool:
        """Whether the view sticks to the bottom as content arrives."""
        return self._follow

    @property
    def items(self) -> list[MessageItem]:
        """The messages shown, with streamed text folded into ``content``."""
        return [self._current_item(entry) for entry in self._layout.entries]

    def get_item(self, message_id: str) -> MessageItem | None:
        entry = self._layout.get(message_id)
        return None if entry is None else self._current_item(entry)

    def set_messages(self, items: list[MessageItem], *, select: str | None = None) -> None:
        """Show a new path; nothing is rendered until it is near the viewport.

        The leading messages the new path shares with the shown one (the path above the fork
        after a version flip or a checkout) keep their entries and rendered lines: a switch
        near the bottom of a 2,000-message path only lays out and renders what is below it.
        Other messages shown before, unchanged, keep their rendered lines too.
        ``select``: then select that message as :meth:`select_message` does; when it sits
        screens above the bottom, only the lines around it are rendered, not the bottom.
        """
        width = self._width or DEFAULT_WIDTH
        self._cancel_flush()
        keep = self.shared_prefix(items)
        kept = self._layout.entries[:keep]
        # Messages shown further down before (the bottom of a path drawn before the rest was
        # read) keep their rendered lines too.
        known = {
            entry.item.id: entry
            for entry in self._layout.entries[keep:]
            if not entry.pending and not entry.streaming
        }
        self._layout.reset(
            kept + [self._entry_for(item, known.get(item.id), width) for item in items[keep:]]
        )
        self._open_thinking &= set(self._layout.index)
        self.empty = not items
        self._streaming_ids = {item.id for item in items if item.status == "streaming"}
        if self._selected not in self._layout.index:
            self._selected = None
        self._follow = True
        position = self._layout.index.get(select) if select is not None else None
        if position is not None:
            top = self._layout.tops[position]
            if top < self._layout.total - 2 * max(1, self.scrollable_content_region.height):
                self.select_message(select, scroll=False)
                self._scroll_to_line(top)  # where select_message would scroll after _update
                return
        self._update()
        if select is not None:
            self.select_message(select)

    def _entry_for(self, item: MessageItem, known: Entry | None, width: int) -> Entry:
        if known is not None and (known.item is item or known.item == item):
            return known
        return self._new_entry(item, width)

    def _new_entry(self, item: MessageItem, width: int) -> Entry:
        return Entry.from_item(item, width, thinking_open=item.id in self._open_thinking)

    def shared_prefix(self, items: list[MessageItem]) -> int:
        """How many leading ``items`` the view already shows exactly (finished, same row)."""
        entries = self._layout.entries
        keep = 0
        for entry, item in zip(entries, items, strict=False):
            if entry.pending or entry.streaming or not (entry.item is item or entry.item == item):
                break
            keep += 1
        return keep

    def start_message(self, item: MessageItem) -> None:
        """Add a message at the end (or reset one with the same id) that will stream."""
        if item.status != "streaming":
            item = replace(item, status="streaming")
        entry = self._new_entry(item, self._width or DEFAULT_WIDTH)
        entry.split(self._width or DEFAULT_WIDTH)
        position = self._layout.index.get(item.id)
        if position is None:
            self._layout.append(entry)
        else:
            self._layout.entries[position] = entry
            self._layout.rebuild(position)
        self.empty = False
        self._streaming_ids.add(item.id)
        self._update()

    def append_text(self, message_id: str, text: str) -> None:
        """Append streamed Markdown; renders are coalesced to one per frame interval."""
        entry = self._layout.get(message_id)
        if entry is None or not text:
            return
        entry.pending.append(text)
        self._streaming_ids.add(message_id)
        self._schedule_flush()

    def append_reasoning(self, message_id: str, text: str) -> None:
        """Append streamed reasoning to the message's thinking (coalesced like ``append_text``)."""
        entry = self._layout.get(message_id)
        if entry is None or not text:
            return
        entry.reasoning_pending.append(text)
        self._streaming_ids.add(message_id)
        self._schedule_flush()

    def finish_message(
        self, message_id: str, status: Status, badge: str | None = None, *, error: str = ""
    ) -> None:
        """End a stream with ``status`` (and a final badge / error sentence)."""
        entry = self._layout.get(message_id)
        if entry is None:
            return
        self._streaming_ids.discard(message_id)
        item = replace(
            entry.item,
            status=status,
            badge=entry.item.badge if badge is None else badge,
            error=error or entry.item.error,
        )
        entry.finish(item, self._width or DEFAULT_WIDTH)
        self._layout.rebuild(self._layout.index[message_id])
        self._update()

    def update_item(self, item: MessageItem) -> None:
        """Replace a message's item (badge, versions, status, content ...).

        Blocks are kept when the text is unchanged; a streaming message keeps what it has
        streamed when ``item.content`` is only an older prefix of it (a record flushed earlier).
        """
        position = self._layout.index.get(item.id)
        if position is None:
            return
        width = self._width or DEFAULT_WIDTH
        entry = self._layout.entries[position]
        entry.absorb_pending(width)
        entry.absorb_reasoning()
        text = _normalised(item.content)
        keep_stream = entry.streaming and item.status == "streaming" and entry.text.startswith(text)
        if text == entry.text or keep_stream:
            if item.reasoning != entry.reasoning and not (
                keep_stream and entry.reasoning.startswith(item.reasoning)
            ):
                entry.set_reasoning(item.reasoning)
            entry.item = replace(item, content=entry.text, reasoning=entry.reasoning)
            entry.header = None
            entry.notice = None
            entry.relayout()
        else:
            entry = self._new_entry(item, width)
            self._layout.entries[position] = entry
            if item.status == "streaming":
                entry.split(width)
        if item.status == "streaming":
            self._streaming_ids.add(item.id)
        self._layout.rebuild(position)
        self._update()

    def select_message(self, message_id: str | None, *, scroll: bool = True) -> None:
        """Select a message (highlighted header) and bring it into view; posts nothing."""
        if message_id is not None and message_id not in self._layout.index:
            return
        for old in (self._selected, message_id):
            entry = self._layout.get(old) if old else None
            if entry is not None:
                entry.header = None
        self._selected = message_id
        if message_id is not None and scroll:
            self._reveal(self._layout.index[message_id])
        self.refresh()

    def _reveal(self, index: int) -> None:
        """Scroll a message's header into view if it is not on screen."""
        top = self._layout.tops[index]
        height = max(1, self.scrollable_content_region.height)
        scroll = round(self.scroll_y)
        if top < scroll or top >= scroll + height - 1:
            self._scroll_to_line(top)

    def scroll_to_message(self, message_id: str) -> None:
        """Scroll so the message's header is at the top of the view (stops following)."""
        position = self._layout.index.get(message_id)
        if position is None:
            return
        self._scroll_to_line(self._layout.tops[position])

    def visible_text(self) -> list[str]:
        """The text of the lines drawn in the viewport, overlays included (tests, status)."""
        height = self.scrollable_content_region.height
        return [self.render_line(y).text.rstrip() for y in range(height)]

    def text_lines(self) -> list[str]:
        """Every line's text, rendering whatever is missing (slow on long paths: tests)."""
        self._realize_range(0, self._layout.total + 10_000)
        return [self._line_text(y) for y in range(self._layout.total)]

    @property
    def cached_block_count(self) -> int:
        """How many blocks currently hold rendered lines."""
        return sum(
            1
            for entry in self._layout.entries
            if entry.blocks is not None
            for block in entry.blocks
            if block.strips is not None
        )

    # -- input ------------------------------------------------------------------------------

    def on_key(self, event: Key) -> None:
        """A printable key that is not a command here goes to the composer; so does a command
        key while a draft is being typed (typing on never forks or edits by surprise)."""
        if not event.is_printable or not event.character:
            return
        if event.key in COMMAND_KEYS and not self.composing:
            return  # the binding runs
        event.stop()
        event.prevent_default()
        self.post_message(self.TypedAhead(self, event.character))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.composing and action in SINGLE_KEY_ACTIONS:
            return None  # shown dimmed: the key types into the draft for now
        return True

    def on_click(self, event: Click) -> None:
        """A click anywhere in a message selects it (links and ``<``/``>`` act as well)."""
        offset = event.get_content_offset(self)
        if offset is None or not self._layout.entries:
            return
        virtual_y = round(self.scroll_y) + offset.y
        if virtual_y >= self._layout.total:
            return
        entry = self._layout.entries[self._layout.entry_at(virtual_y)]
        if entry.item.id != self._selected:
            self.select_message(entry.item.id, scroll=False)
            self.post_message(self.Selected(self, entry.item.id))

    def _target(self) -> Entry | None:
        """The selected message, else the last one."""
        if self._selected is not None:
            return self._layout.get(self._selected)
        return self._layout.entries[-1] if self._layout.entries else None

    def _move_selection(self, step: int) -> None:
        entries = self._layout.entries
        if not entries:
            return
        if self._selected is None:
            index = self._bottom_visible_header()
        else:
            index = max(0, min(len(entries) - 1, self._layout.index[self._selected] + step))
        message_id = entries[index].item.id
        if message_id != self._selected:
            self.select_message(message_id)
            self.post_message(self.Selected(self, message_id))

    def _bottom_visible_header(self) -> int:
        """The last message whose header is on screen (or the one filling the screen)."""
        bottom = round(self.scroll_y) + self.scrollable_content_region.height - 1
        return self._layout.entry_at(max(0, bottom))

    def action_select_previous(self) -> None:
        self._move_selection(-1)

    def action_select_next(self) -> None:
        self._move_selection(1)

    def action_flip(self, delta: int) -> None:
        entry = self._target()
        if entry is not None and entry.item.has_versions:
            self.post_message(self.VersionFlipRequested(self, entry.item.id, delta))

    def action_flip_version(self, message_id: str, delta: int) -> None:
        """The header's ``<`` / ``>`` were clicked."""
        if message_id in self._layout.index:
            self.post_message(self.VersionFlipRequested(self, message_id, delta))

    def action_request(self, action: str) -> None:
        entry = self._target()
        if entry is not None and action in ACTIONS:
            self.post_message(self.ActionRequested(self, entry.item.id, action))

    def action_copy_message(self) -> None:
        entry = self._target()
        if entry is None:
            return
        # what is copied is what is shown: a paste into a shell must not carry escape sequences
        self.app.copy_to_clipboard(printable(self._current_item(entry).content))
        self.post_message(self.ActionRequested(self, entry.item.id, "copy"))

    def action_copy_code(self) -> None:
        entry = self._target()
        if entry is None:
            return
        index = self._layout.index[entry.item.id]
        width = self._width or DEFAULT_WIDTH
        entry.absorb_pending(width)
        if entry.blocks is None:
            entry.split(width)
        self._layout.rebuild(index)
        body_top = self._layout.tops[index] + 1
        view_top = round(self.scroll_y) - body_top
        block = entry.code_block_near(view_top, view_top + self.scrollable_content_region.height)
        if block is None:
            self.notify("No code block in this message.", severity="warning")
            return
        code = printable(code_of(block))
        self.app.copy_to_clipboard(code)
        self.post_message(self.CodeCopied(self, entry.item.id, code))

    def action_toggle_thinking(self, message_id: str | None = None) -> None:
        """Unfold or fold a reply's thinking (the selected one's, else the last's; a click on
        the thinking line names its message)."""
        entry = self._target() if message_id is None else self._layout.get(message_id)
        if entry is None:
            return
        entry.absorb_reasoning()
        if not entry.has_thinking:
            self.notify("No thinking in this message.", severity="warning")
            return
        opened = not entry.thinking_open
        if opened:
            self._open_thinking.add(entry.item.id)
        else:
            self._open_thinking.discard(entry.item.id)
        entry.set_reasoning(entry.reasoning, thinking_open=opened)
        position = self._layout.index[entry.item.id]
        self._layout.rebuild(position)
        self._update(changed_from_line=self._layout.tops[position])
        if opened:
            self._reveal(position)

    def action_scroll_home(self) -> None:
        """Jump to the first message without animating through (and rendering) the path."""
        self._scroll_to_line(0)

    def action_jump_to_latest(self) -> None:
        self._follow = True
        self._update()

    async def action_link(self, href: str) -> None:
        self.post_message(self.LinkClicked(self, href))
        if self.open_links:
            self.app.open_url(href)


def _normalised(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _command_keys(bindings: list[BindingType]) -> frozenset[str]:
    keys: set[str] = set()
    for binding in bindings:
        if isinstance(binding, Binding):
            keys.update(binding.key.split(","))
    return frozenset(keys)


COMMAND_KEYS = _command_keys(MessageView.BINDINGS)
"""Every key the view binds (its printable ones are the single-key commands)."""
