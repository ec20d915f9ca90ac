"""A reply that ended cut, refused, filtered or empty, in the chat: shown with its mark in the
header badge and its sentence under it, notified, and F5 answers it again."""

from __future__ import annotations

import pytest

from agents.reply_outcome import MARKED, OUTCOME_META_KEY
from storage.models import MessageStatus
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from weaver_tui.core.chat_state.rows import OUTCOME_MARKS
from weaver_tui.core.services import Services
from weaver_tui.widgets.conversation_tree.labels import OUTCOME_WORDS, label_parts

pytestmark = pytest.mark.usefixtures("researcher")

PROFILE = "researcher"


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (
            Reply(
                tool_calls=[ToolCall("search_knowledge_base", '{"query": "BM')],
                finish_reason="length",
            ),
            "truncated",
        ),
        (Reply(refusal="I can't help with that."), "refused"),
        (Reply("The first half", finish_reason="content_filter"), "filtered"),
        (Reply(""), "empty"),
        (Reply("\u200b\u2060"), "empty"),
        (Reply("The first half", finish_reason="error"), "unfinished"),
    ],
)
async def test_a_marked_reply_is_shown_marked_and_f5_retries_it(
    remote_services: Services, fake_openai: FakeOpenAI, reply: Reply, outcome: str
) -> None:
    fake_openai.script(reply, Reply("Now it works."))
    app = new_app(remote_services, profile=PROFILE)
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(app)
        await send(pilot, "hello?")
        failed = screen.messages.items[-1]
        stored = screen.state.store.get_message(failed.id)
        assert stored.status is MessageStatus.ERROR
        assert stored.meta[OUTCOME_META_KEY] == outcome
        assert failed.status == "error"
        assert failed.error == stored.meta["error"]
        assert OUTCOME_MARKS[outcome] in failed.badge
        label = "".join(text for text, _ in label_parts(stored, version=(1, 1), active=True))
        assert OUTCOME_WORDS[outcome] in label
        if reply.refusal:
            assert failed.content == reply.refusal
        notices = [n for n in app._notifications if n.severity == "error"]
        assert notices
        assert failed.error in notices[-1].message
        assert screen.check_action("retry", ()) is True

        await pilot.press("f5")
        await settle(pilot)

        replies = screen.state.store.siblings(failed.id)
        assert [r.status for r in replies] == [MessageStatus.ERROR, MessageStatus.COMPLETE]
        assert screen.messages.items[-1].content == "Now it works."


def test_every_marked_outcome_has_its_badge_and_its_word() -> None:
    assert set(OUTCOME_MARKS) == set(MARKED)
    assert set(OUTCOME_WORDS) == set(MARKED)
