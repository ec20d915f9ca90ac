"""The host's chat on a served space shows, live, its statements, agenda, fairness meter and
the posts waiting for a participant's consent in the mediator's panel, as the shared channel
reads them: who has answered, never what, until every participant has (another process writes
each of them)."""

from __future__ import annotations

from storage.consents import ConsentBook
from storage.seats import SeatBook
from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import AnswerBook
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, wait_until
from tests.ui_app.test_host_follows_space import mediator_space
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.widgets.statement_box import StatementBox


def box(screen: ChatScreen) -> str:
    panel = screen.space_panel()
    if panel is None:
        return ""
    found = panel.query(StatementBox)
    if not found:  # the panel is being composed
        return ""
    widget = found.first()
    lines = widget.render_lines(widget.region.reset_offset)
    return "\n".join("".join(segment.text for segment in line) for line in lines)


def consent(screen: ChatScreen) -> str:
    panel = screen.space_panel()
    return "" if panel is None else "\n".join(r.text for r in panel.consents)


async def test_the_panel_follows_statements_answers_and_consent(services: Services) -> None:
    conversation_id = mediator_space(services)
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        other = SqliteConversationStore(services.storage.sqlite_path)  # the space's runner, say
        answers = AnswerBook(services.storage.sqlite_path)
        consents = ConsentBook(services.storage.sqlite_path)
        try:
            leaf = other.active_leaf(conversation_id)
            assert leaf is not None
            statement = other.add_message(
                conversation_id, "tool", "Statement posted.", leaf.id,
                meta={"name": "propose_statement", "kind": "statement", "visibility": "shared",
                      "statement": "S1", "topic": "budget", "statement_version": 1,
                      "delivered_content": "We save 300 a month."},
            )  # fmt: skip
            await wait_until(pilot, lambda: "We save 300 a month." in box(screen))
            assert "Words: Alex 100% · Sam 0% | S1 reflects: nobody named" in box(screen)
            other.add_message(
                conversation_id, "tool", "Agenda set.", statement.id,
                meta={"name": "set_agenda", "kind": "agenda", "visibility": "shared",
                      "topics": ["budget", "holiday"]},
            )  # fmt: skip
            await wait_until(pilot, lambda: "Agenda: ◐ budget (statement proposed)" in box(screen))
            assert "○ holiday (open)" in box(screen)
            answers.answer(conversation_id, statement.id, "Sam", "disagree", "Too much.")
            await wait_until(pilot, lambda: "Sam ● answered" in box(screen))
            assert "disagree" not in box(screen)
            assert "Too much." not in box(screen)
            answers.answer(conversation_id, statement.id, "Alex", "agree")
            await wait_until(pilot, lambda: "Sam ✗ disagrees" in box(screen))
            assert "Too much." not in box(screen)  # a critique is its author's
            consents.ask(conversation_id, "c1", ["Sam"], "post_to_shared", "About the debt.")
            await wait_until(pilot, lambda: "About the debt." in consent(screen))
        finally:
            consents.close()
            answers.close()
            other.close()


async def test_the_palette_writes_the_space_record(services: Services) -> None:
    conversation_id = mediator_space(services)
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        await palette_run(pilot, "Write space record")
        exports = services.data_dir / "exports"
        await wait_until(pilot, lambda: any(exports.glob("*-record.md")))
        (written,) = exports.glob("*-record.md")
        text = written.read_text(encoding="utf-8")
        assert text.startswith("# Record: Budget")
        assert "Nothing agreed yet." in text


async def test_the_host_s_own_turn_waits_for_consent_and_the_panel_says_so(
    remote_services: Services, fake_openai: FakeOpenAI
) -> None:
    """The host sends as Alex; the mediator's post draws on Sam's private words and Sam has a
    seat: the turn pauses, nothing is posted, and the panel shows what waits for Sam."""
    services = remote_services
    conversation_id = mediator_space(services)
    seats = SeatBook(services.storage.sqlite_path)
    try:
        seats.open_seats(conversation_id, ["Alex", "Sam"])
    finally:
        seats.close()
    post = "Sam wants us to plan for an old debt."
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": post, "draws_on": ["Sam"]}, id="c")]),
    )  # fmt: skip
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        await send(pilot, "How are we doing?")
        await wait_until(pilot, lambda: post in consent(screen))
        assert post not in "\n".join(item.content for item in screen.messages.items)
        assert not any(
            r.meta.get("delivered_content") == post
            for r in services.store.list_messages(conversation_id)
        )
