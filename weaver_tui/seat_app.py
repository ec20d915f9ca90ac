"""A participant's seat in a served shared space: locked to them, live, and writing no record.

``weaver-tui space open`` starts this app for each browser that opens a participant's link
(the host's space server resolves the link's token into the participant and the
conversation). The seat is a small app of its own rather than the full chat app in a mode:
what it can do is what it has, so there is nothing to switch speaker or view with.

- It shows what its participant may read (:func:`agents.shared_space.seat_view.seat_lines`,
  filtered in the store's query), and reloads when anyone commits to the store (the change
  signal, :class:`storage.change_signal.StoreChanges`): a message sent at another seat, the
  mediator's delivery, appears within the poll interval.
- Messages read as the app's message view renders them (Markdown, themed code blocks); an
  empty space opens on a first screen that says who the participant is, who else is there and
  what to do; the footer lists the keys (send, audience, scroll, quit).
- Enter sends as its participant (printable text within ``max_bytes``, or refused whole:
  :mod:`weaver_tui.seat_composer`); F8 chooses the audience (the mediator only, or everyone).
  The message waits in the store's seat queue (:class:`storage.seats.SeatBook`) until the
  host's runner stores and answers it, and shows as waiting until then. The seat holds no key
  and runs no model: closing it mid-reply loses nothing.
- The space's statements show above the composer (:class:`~weaver_tui.widgets.statement_box.
  StatementBox`), read for this participant. F5, F6 and F7 answer the current one (agree,
  partly, disagree), with what is in the composer as the critique; F9 shows this participant's
  answer and critique to everyone. An answer is written here, at the participant's own seat,
  into the store's answer book (:class:`storage.statement_answers.AnswerBook`): the one place
  an answer comes from.
- When the mediator would post something that draws on what this participant told it
  privately, the question shows above everything (:mod:`agents.shared_space.consent`): the
  words, and F5 allows them, F6 posts the composer's words instead, F7 refuses. While it
  waits, F5-F7 answer it, not the statement; nothing is posted until they answer.
- F4 shows this participant's own copy of the record (what was agreed, what is open, their
  own private exchange and answers: :mod:`weaver_tui.seat_record_screen`).
"""

from __future__ import annotations

import logging
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Footer, Input, Static

from agents.shared_space.agenda import agenda_for
from agents.shared_space.seat_view import seat_lines
from agents.shared_space.space import SpaceMessage
from agents.shared_space.statements import Statement, current_open, read_board
from storage.backend import Where, open_changes, open_seat_book, open_store
from storage.consents import ConsentRequest
from storage.printable import printable
from storage.seats import QueuedMessage
from storage.space_books import open_answer_book, open_consent_book
from storage.store import StorageError
from weaver_tui.plain_notify_app import PlainNotifyApp
from weaver_tui.seat_composer import DEFAULT_MAX_BYTES, MessageTooLarge, SeatComposer, seat_message
from weaver_tui.widgets.statement_box import StatementBox

logger = logging.getLogger(__name__)


def audience_words(shared: bool) -> str:
    return "everyone" if shared else "the mediator only"


WORDS_INDENT = 2
"""Columns a message's words are set in from the margin, where only headers start."""


def line_header(line: SpaceMessage, participant: str) -> Text:
    """Who wrote a line of the seat's view, and to whom."""
    author = "You" if line.author == participant else line.author
    if line.statement:
        to = f"statement {line.statement}, to everyone: F5 agree, F6 partly, F7 disagree"
    elif line.visibility == "shared":
        to = "to everyone"
    elif line.kind == "delivered":
        to = "to you, privately"
    else:
        to = "to the mediator, privately"
    text = Text()
    text.append(f"{printable(author)} ", style="bold")
    text.append(f"({to})", style="dim")
    return text


def line_text(line: SpaceMessage, participant: str) -> Text:
    """One line of the seat's view as plain text: who wrote it, to whom, and the words (what
    the seat compares to know whether anything changed)."""
    text = line_header(line, participant)
    text.append("\n" + printable(line.content))
    return text


def welcome_text(participant: str, others: list[str]) -> str:
    """The first screen of an empty space: who you are, who else is here, what to do."""
    with_whom = ", ".join(others) if others else "the others, once they join"
    return (
        f"You are {participant}, at your own seat in a shared space with {with_whom} and "
        "a neutral mediator.\n\n"
        "Write below and press Enter. What you write goes to the mediator only, unless you "
        "press F8 to say it to everyone. The mediator answers you privately or posts to "
        "everyone; you see only what is yours or shared.\n\n"
        "PageUp and PageDown scroll; Ctrl+Q leaves the seat (nothing is lost)."
    )


def consent_text(asked: ConsentRequest) -> Text:
    """The question of a post that draws on this participant's private words (the post's
    lines set in under the question, as a message's words are under its header)."""
    text = Text("The mediator would post this to everyone; ", style="bold")
    text.append("it uses what you told the mediator privately:", style="bold")
    indent = " " * WORDS_INDENT
    words = "\n".join(indent + row for row in printable(asked.text).split("\n"))
    text.append("\n" + words + "\n", style="italic")
    text.append(
        "F5 allow · F6 post the words in your composer instead · F7 refuse "
        "(nothing is posted until you answer)",
        style="dim",
    )
    return text


def waiting_text(queued: QueuedMessage) -> Text:
    text = Text()
    if queued.status == "failed" and queued.record_id is not None:
        text.append("No answer: ", style="bold red")
        text.append(printable(queued.error or "the mediator's reply failed."))
        text.append("\n" + printable(queued.content), style="dim")
        return text
    if queued.status == "failed":
        text.append("Not sent: ", style="bold red")
        text.append(printable(queued.error or "the host could not send it."))
        text.append("\n" + printable(queued.content), style="dim")
        return text
    state = "answering" if queued.status == "answering" else "waiting for its turn"
    text.append(f"You ({audience_words(queued.shared)}, {state})", style="bold dim")
    text.append("\n" + printable(queued.content), style="dim")
    return text


class SeatApp(PlainNotifyApp):
    """One participant's seat; see the module docstring."""

    TITLE = "weaver-tui"
    CSS = """
    #lines { height: 1fr; padding: 0 1; }
    #lines > Static { margin-bottom: 1; }
    .waiting { color: $text-muted; }
    #audience { height: 1; padding: 0 1; background: $panel; }
    #consent { height: auto; max-height: 12; padding: 0 1; border: round $warning; }
    #consent.-empty { display: none; }
    """
    ENABLE_COMMAND_PALETTE = False  # no command to reach: the seat is what it shows
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f8", "toggle_audience", "Audience", priority=True),
        Binding("f5", "answer('agree')", "Agree/allow", priority=True),
        Binding("f6", "answer('partly')", "Partly/edit", priority=True),
        Binding("f7", "answer('disagree')", "Disagree/refuse", priority=True),
        Binding("f9", "share_answer", "Share my answer", priority=True),
        Binding("f4", "show_record", "My record", priority=True),
        Binding("pageup", "scroll_lines(-1)", "Scroll up", priority=True),
        Binding("pagedown", "scroll_lines(1)", "Scroll down", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        db_path: Where,
        conversation_id: str,
        participant: str,
        *,
        poll_s: float = 0.05,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        super().__init__()
        self.max_bytes = max_bytes
        self.store = open_store(db_path)
        self.seats = open_seat_book(db_path)
        self.answers = open_answer_book(db_path)
        self.consents = open_consent_book(db_path)
        self.asked: list[ConsentRequest] = []
        """Consent this participant has still to give or refuse (last read)."""
        self.statements: list[Statement] = []
        """The space's statements as this participant may read them (last read)."""
        self.changes = open_changes(db_path, conversation_id)
        self.conversation_id = conversation_id
        self.participant = participant
        self.shared = False
        self.poll_s = poll_s
        self.shown: list[Text] = []
        """What the seat shows, line by line (its own waiting messages last)."""
        self.drawn = False
        """Whether the lines (or the first screen, for an empty space) are drawn yet."""

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="lines")
        yield Static(id="consent", classes="-empty", markup=False)
        yield StatementBox(id="statements")
        yield Static(id="audience", markup=False)
        yield SeatComposer(
            self.max_bytes, placeholder="Write to the space; Enter sends", id="composer"
        )
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.participant}'s seat"
        self._show_audience()
        self.query_one("#composer", Input).focus()
        self.refresh_lines()
        self.follow_changes()

    def _show_audience(self) -> None:
        self.query_one("#audience", Static).update(
            f"You are {printable(self.participant)}, speaking to "
            f"{audience_words(self.shared)} (F8 switches)"
        )

    def action_scroll_lines(self, pages: int) -> None:
        box = self.query_one("#lines", VerticalScroll)
        if pages < 0:
            box.scroll_page_up(animate=False)
        else:
            box.scroll_page_down(animate=False)

    def action_toggle_audience(self) -> None:
        self.shared = not self.shared
        self._show_audience()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            text = seat_message(event.value, self.max_bytes)
        except MessageTooLarge as exc:
            self.notify(str(exc), severity="error")
            return
        if not text:
            return
        try:
            self.seats.enqueue(self.conversation_id, self.participant, text, self.shared)
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        event.input.value = ""
        self.refresh_lines()

    def action_answer(self, value: str) -> None:
        """Answer the consent question waiting here, else the current statement's newest
        version; the composer's text is the critique (or the words allowed instead)."""
        if self.asked:
            self._consent({"agree": "allow", "partly": "edit"}.get(value, "refuse"))
            return
        statement = current_open(self.statements)
        if statement is None:
            self.notify("There is no statement to answer yet.", severity="warning")
            return
        composer = self.query_one("#composer", Input)
        try:
            critique = seat_message(composer.value, self.max_bytes)
            self.answers.answer(
                self.conversation_id,
                statement.latest.record_id,
                self.participant,
                value,
                critique,
            )
        except (MessageTooLarge, StorageError) as exc:
            self.notify(str(exc), severity="error")
            return
        composer.value = ""
        noted = " with your critique (only you and the mediator read it; F9 shares it)"
        self.notify(
            f"Your answer to {statement.key} v{statement.latest.number}: {value}"
            + (noted if critique else "")
            + "."
        )
        self.refresh_lines()

    def _consent(self, decision: str) -> None:
        asked = self.asked[0]
        composer = self.query_one("#composer", Input)
        try:
            words = seat_message(composer.value, self.max_bytes) if decision == "edit" else ""
            self.consents.answer(asked.call_id, self.participant, decision, words)
        except (MessageTooLarge, StorageError) as exc:
            self.notify(str(exc), severity="error")
            return
        if decision == "edit":
            composer.value = ""
        said = {"allow": "allowed", "edit": "gave your own words", "refuse": "refused"}
        self.notify(f"You {said[decision]}; the mediator is told.")
        self.refresh_lines()

    def action_show_record(self) -> None:
        from agents.shared_space.record import space_record
        from weaver_tui.seat_record_screen import SeatRecordScreen

        if len(self.screen_stack) > 1:
            return
        try:
            text = space_record(self.store, self.conversation_id, self.participant)
        except (StorageError, ValueError) as exc:
            self.notify(str(exc), severity="error")
            return
        self.push_screen(SeatRecordScreen(text))

    def action_share_answer(self) -> None:
        """Show this participant's answer to the current statement to everyone."""
        statement = current_open(self.statements)
        try:
            shared = statement is not None and self.answers.share(
                statement.latest.record_id, self.participant
            )
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        if not shared:
            self.notify("Answer the statement first (F5, F6 or F7); then F9 shares it.")
            return
        self.notify("Everyone can now read your answer and critique.")
        self.refresh_lines()

    @work(exclusive=True, group="changes")
    async def follow_changes(self) -> None:
        """Reload whenever another connection commits to the store."""
        while True:
            await self.changes.wait(poll_s=self.poll_s)
            self.refresh_lines()

    def refresh_lines(self) -> None:
        """Show what the participant may read, then their messages still in line."""
        try:
            lines = seat_lines(self.store, self.conversation_id, self.participant)
            queued = self.seats.queued(self.conversation_id, self.participant)
        except StorageError as exc:
            logger.warning("the seat could not read the space", extra={"error": str(exc)})
            self.notify(str(exc), severity="error")
            return
        self._show_consent()
        self._show_statements()
        texts = [line_text(line, self.participant) for line in lines]
        texts += [waiting_text(q) for q in queued]
        if texts != self.shown or not self.drawn:
            views = [self._rendered(line) for line in lines] + texts[len(lines) :]
            self._render_lines(texts, views, waiting=len(queued))

    def _show_consent(self) -> None:
        try:
            self.asked = self.consents.waiting(self.conversation_id, self.participant)
            box = self.query_one("#consent", Static)
        except (NoMatches, StorageError):
            return
        box.set_class(not self.asked, "-empty")
        if self.asked:
            box.update(consent_text(self.asked[0]))

    def _show_statements(self) -> None:
        self.statements = read_board(self.store, self.conversation_id, self.participant)
        try:
            box = self.query_one("#statements", StatementBox)
            people = self.store.get_conversation(self.conversation_id).meta.get("participants")
            agenda = agenda_for(self.store, self.conversation_id, self.participant, self.statements)
        except (NoMatches, StorageError):
            return
        names = [str(p) for p in people or ()]
        box.show_statements(self.statements, names, self.participant, agenda)

    def _rendered(self, line: SpaceMessage) -> RenderableType:
        """A line as the app's message view renders a message: its words as Markdown, indented
        by :data:`WORDS_INDENT` under the header. Only a header starts at the margin, so words
        (a post, another participant's message) cannot draw what reads as someone else's
        header and speak as them."""
        from rich.padding import Padding

        from weaver_tui.widgets.message_view.palette import build_palette
        from weaver_tui.widgets.message_view.rich_markdown import ChatMarkdown

        palette = build_palette(self.current_theme)
        words = ChatMarkdown(
            printable(line.content),
            code_theme=palette.code_theme,
            code_background=palette.code_background,
        )
        indented = Padding(words, (0, 0, 0, WORDS_INDENT))
        return Group(line_header(line, self.participant), indented)

    def _render_lines(self, texts: list[Text], views: list[RenderableType], waiting: int) -> None:
        try:
            box = self.query_one("#lines", VerticalScroll)
        except NoMatches:  # the seat is closing: a last change it followed is not drawn
            return
        box.remove_children()
        self.drawn = True
        if not texts:
            welcome = welcome_text(self.participant, self._others())
            box.mount(Static(welcome, id="welcome", markup=False))
            self.shown = texts
            return
        first_waiting = len(texts) - waiting
        box.mount_all(
            Static(view, classes="waiting" if i >= first_waiting else "", markup=False)
            for i, view in enumerate(views)
        )
        box.scroll_end(animate=False)
        self.shown = texts

    def _others(self) -> list[str]:
        """Who else has a seat in this space (as the conversation records them)."""
        try:
            meta = self.store.get_conversation(self.conversation_id).meta
        except StorageError:
            return []
        names = [str(name) for name in meta.get("participants") or ()]
        return [printable(name) for name in names if name != self.participant]

    def on_unmount(self) -> None:
        # the follower first: cancelled now, it reads nothing more once the stores close
        # (its next step raises the cancellation at its await, before any read)
        self.workers.cancel_group(self, "changes")
        self.changes.close()
        self.seats.close()
        self.answers.close()
        self.consents.close()
        self.store.close()
