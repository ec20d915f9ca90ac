"""The mediator's consent question over ACP, through the SDK's own client and ``weaver-tui acp``
as a subprocess (the mediator on the fake OpenAI server, a real SQLite file).

The class: a post for everyone that draws on a participant's private words is posted only when
this editor's user, asked in a form (``elicitation/create``) because the client shows forms,
accepted it with a valid choice; a declined or cancelled form, or any malformed answer, posts
nothing (a refusal the mediator reads). A client that shows no forms is never sent one, and
the post is not made (that participant has no seat to allow it), as before forms existed.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError

from storage.consents import ConsentBook
from storage.seats import SeatBook
from tests.acp.agent_process import AcpAgent, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")

POST = "Sam would like to plan for an old debt together."
CALL = "c_post"


def script_a_post(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": POST, "draws_on": ["Sam"]}, id=CALL)]),
        Reply("That is where we are."),
    )  # fmt: skip


def posted(agent: AcpAgent, session: str) -> list[str]:
    """What the last turn's post for everyone delivered (nothing when it was not posted)."""
    store = agent.open_store()
    try:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        path = store.path_to_root(leaf.id)
        last_user = max(i for i, r in enumerate(path) if r.role == "user")
        return [
            str(r.meta["delivered_content"])
            for r in path[last_user:]
            if r.role == "tool" and r.meta.get("tool_call_id") == CALL
            and r.meta.get("delivered_content")
        ]  # fmt: skip
    finally:
        store.close()


def decisions(agent: AcpAgent, session: str) -> list[str | None]:
    """The answers kept for the session's consent questions, oldest first."""
    store = agent.open_store()
    try:
        conversation_id = session_conversation(store, session).id
    finally:
        store.close()
    with sqlite3.connect(agent.data_dir / "weaver.db") as conn:
        rows = conn.execute(
            "SELECT decision FROM consent_requests WHERE conversation_id = ? ORDER BY asked_at",
            (conversation_id,),
        ).fetchall()
    return [row[0] for row in rows]


async def post_with_forms(
    agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI, answer: Any
) -> tuple[str, Any]:
    agent.client.form_answer = answer
    script_a_post(fake_openai)
    session = await agent.start(tmp_path, forms=True)
    response = await agent.ask(session, "Please tell everyone what Sam and I discussed.")
    return session, response


async def test_an_accepted_form_posts_and_the_form_names_who_is_asked_and_the_words(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    answer = {"action": "accept", "content": {"decision": "allow"}}
    session, response = await post_with_forms(mediator_agent, tmp_path, fake_openai, answer)

    assert response.stop_reason == "end_turn"
    [(message, mode)] = mediator_agent.client.forms
    assert "Sam" in message
    assert POST in message
    assert mode.session_id == session
    assert "decision" in (mode.requested_schema.required or [])
    assert posted(mediator_agent, session) == [POST]
    assert decisions(mediator_agent, session) == ["allow"]


async def test_an_edit_posts_the_words_the_user_wrote_instead(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    words = "We would like to talk about planning for debts."
    answer = {"action": "accept", "content": {"decision": "edit", "words": words}}
    session, response = await post_with_forms(mediator_agent, tmp_path, fake_openai, answer)

    assert response.stop_reason == "end_turn"
    assert posted(mediator_agent, session) == [words]
    assert decisions(mediator_agent, session) == ["edit"]


@pytest.mark.parametrize(
    "answer",
    [
        {"action": "decline"},
        {"action": "cancel"},
        {"action": "accept", "content": {"decision": "refuse"}},
        {"action": "accept", "content": {"decision": "yes please"}},
        {"action": "accept", "content": {"decision": "edit", "words": "   "}},
        {"action": "accept"},
        {"action": "_later"},
        {"surprise": True},
        "allow",
        None,
    ],
    ids=[
        "decline",
        "cancel",
        "refuse",
        "unknown-choice",
        "edit-without-words",
        "accept-without-content",
        "unknown-action",
        "no-action",
        "not-an-object",
        "null",
    ],
)
async def test_anything_but_a_valid_acceptance_is_a_refusal_and_nothing_is_posted(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI, answer: Any
) -> None:
    session, response = await post_with_forms(mediator_agent, tmp_path, fake_openai, answer)

    assert response.stop_reason == "end_turn"  # the mediator read the refusal and answered
    assert len(mediator_agent.client.forms) == 1
    assert posted(mediator_agent, session) == []
    assert decisions(mediator_agent, session) == ["refuse"]
    [result] = [
        m
        for m in (fake_openai.chat_requests[-1].body or {})["messages"]
        if m["role"] == "tool" and m["tool_call_id"] == CALL
    ]
    assert POST not in str(result["content"])  # the model is not told the words were posted


async def test_a_client_without_forms_is_never_sent_one_and_nothing_is_posted(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    script_a_post(fake_openai)
    session = await mediator_agent.start(tmp_path)
    response = await mediator_agent.ask(session, "Please tell everyone what Sam and I discussed.")

    assert response.stop_reason == "end_turn"
    assert mediator_agent.client.forms == []
    assert posted(mediator_agent, session) == []
    assert decisions(mediator_agent, session) == []  # nobody could be asked, so nothing was asked


async def test_an_answer_never_answers_a_later_question_with_the_same_call_id(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    mediator_agent.client.form_answer = {"action": "accept", "content": {"decision": "allow"}}
    script_a_post(fake_openai)
    session = await mediator_agent.start(tmp_path, forms=True)
    await mediator_agent.ask(session, "Please tell everyone what Sam and I discussed.")
    assert posted(mediator_agent, session) == [POST]

    mediator_agent.client.form_answer = {"action": "decline"}
    script_a_post(fake_openai)  # the provider numbers this turn's call the same
    response = await mediator_agent.ask(session, "And once more, please.")

    assert response.stop_reason == "end_turn"
    assert len(mediator_agent.client.forms) == 2  # asked again: a new question
    assert posted(mediator_agent, session) == []  # this turn's post was refused


async def test_a_prompt_cancelled_while_the_form_is_open_posts_nothing_and_answers_nothing(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    mediator_agent.client.form_answer = never
    script_a_post(fake_openai)
    session = await mediator_agent.start(tmp_path, forms=True)
    prompt = asyncio.ensure_future(
        mediator_agent.ask(session, "Please tell everyone what Sam and I discussed.")
    )
    await mediator_agent.client.wait_for(lambda: bool(mediator_agent.client.forms))
    await mediator_agent.conn.cancel(session_id=session)
    response = await prompt
    never.set_result({"action": "accept", "content": {"decision": "allow"}})  # too late

    assert response.stop_reason == "cancelled"
    assert posted(mediator_agent, session) == []
    assert decisions(mediator_agent, session) == [None]  # still unanswered: never made up


async def test_a_form_the_client_answers_with_an_error_is_a_refusal(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    answer = RequestError.internal_error({"details": "the form could not be shown"})
    session, response = await post_with_forms(mediator_agent, tmp_path, fake_openai, answer)

    assert response.stop_reason == "end_turn"
    assert posted(mediator_agent, session) == []
    assert decisions(mediator_agent, session) == ["refuse"]


ALLOW = {"action": "accept", "content": {"decision": "allow"}}
EDIT = {"action": "accept", "content": {"decision": "edit", "words": "Our own words."}}


@pytest.mark.parametrize(
    ("alex", "sam"),
    [(ALLOW, ALLOW), (ALLOW, {"action": "decline"}), ({"action": "cancel"}, ALLOW), (EDIT, ALLOW)],
    ids=["both-allow", "sam-declines", "alex-cancels", "alex-edits"],
)
async def test_a_post_drawing_on_two_is_posted_only_when_both_allow_it_each_in_their_own_form(
    mediator_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI, alex: Any, sam: Any
) -> None:
    mediator_agent.client.form_answer = lambda message: alex if "Does Alex" in message else sam
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": POST, "draws_on": ["Sam", "Alex"]}, id=CALL)]),
        Reply("That is where we are."),
    )  # fmt: skip
    session = await mediator_agent.start(tmp_path, forms=True)
    response = await mediator_agent.ask(session, "Please tell everyone what we discussed.")

    assert response.stop_reason == "end_turn"
    assert len(mediator_agent.client.forms) == 2  # one form per participant asked
    both_allow = alex == ALLOW and sam == ALLOW
    assert posted(mediator_agent, session) == ([POST] if both_allow else [])


async def test_a_participant_with_a_seat_is_asked_only_at_their_seat_never_in_the_editor(
    mediator_agent: AcpAgent,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mediator_agent.client.form_answer = ALLOW
    fake_openai.script(Reply("Welcome, both of you."))
    session = await mediator_agent.start(tmp_path, forms=True)
    await mediator_agent.ask(session, "Hello.")
    store = mediator_agent.open_store()
    try:
        conversation_id = session_conversation(store, session).id
    finally:
        store.close()
    # the seat is opened by the agent's own user (their key: see storage.authority)
    monkeypatch.setenv("XDG_STATE_HOME", str(mediator_agent.data_dir.parent / "home" / "state"))
    seats = SeatBook(mediator_agent.data_dir / "weaver.db")
    try:
        seats.open_seats(conversation_id, ["Sam"])
    finally:
        seats.close()
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": POST, "draws_on": ["Sam", "Alex"]}, id=CALL)]),
        Reply("That is where we are."),
    )  # fmt: skip

    with pytest.raises(RequestError, match="at their seat"):
        await mediator_agent.ask(session, "Please tell everyone what we discussed.")

    [(message, _mode)] = mediator_agent.client.forms  # Alex only: Sam has a seat
    assert "Does Alex" in message
    assert posted(mediator_agent, session) == []
    book = ConsentBook(mediator_agent.data_dir / "weaver.db")
    try:
        assert [r.participant for r in book.waiting(conversation_id, "Sam")] == ["Sam"]
    finally:
        book.close()
