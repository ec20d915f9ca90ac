"""The offline model addresses the person who spoke, privately and in the shared space."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from agents.profiles.mediator.demo import DEMO_TURNS
from agents.profiles.mediator.offline import topics_of
from tests.offline.conftest import build_loop, run_turn
from tests.offline.tools import mediator_model, mediator_tools

SYSTEM = "You are a neutral mediator for a couple's financial counselling.\nParticipants: Alex, Sam"


def mediator(deliveries: list[dict[str, str]]):
    return build_loop(mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=SYSTEM)


async def test_a_shared_concern_gets_a_private_reply_and_a_neutral_shared_post() -> None:
    deliveries: list[dict[str, str]] = []
    messages = await run_turn(
        mediator(deliveries),
        "I'm worried we spend $800 a month eating out. Can we make a budget?",
        sender="Alex",
    )
    by_recipient = {d["to"]: d["content"] for d in deliveries}  # the two tools run in parallel
    assert sorted(by_recipient) == ["Alex", "shared"] and len(deliveries) == 2
    private, shared = by_recipient["Alex"], by_recipient["shared"]
    assert private.startswith("Thank you, Alex.")
    assert "you're worried" in private and "$800 a month" in private
    assert "Sam, how does that sound to you?" in shared
    assert "household budget" in shared
    assert "$800" not in shared and "eating out" not in shared
    assert "replied privately to **Alex**" in messages[-1].content
    assert "shared space" in messages[-1].content


async def test_a_private_message_is_only_answered_privately() -> None:
    deliveries: list[dict[str, str]] = []
    await run_turn(
        mediator(deliveries),
        "Just between us, I have $5,000 of credit card debt and we never talk about it.",
        sender="Sam",
    )
    assert [d["to"] for d in deliveries] == ["Sam"]
    reply = deliveries[0]["content"]
    assert "won't share it with Alex" in reply
    assert "$5,000" in reply and "just between us" not in reply.lower()


async def test_a_personal_remark_gets_only_a_private_reply_to_its_sender() -> None:
    deliveries: list[dict[str, str]] = []
    await run_turn(mediator(deliveries), "I had a stressful day at work.", sender="Sam")
    assert deliveries == [
        {
            "to": "Sam",
            "content": "Thank you, Sam. I hear that you had a stressful day at work. "
            "It makes sense to feel stressed about this. What would help you most right now?",
        }
    ]


async def test_a_question_to_everyone_is_also_posted_to_the_shared_space() -> None:
    deliveries: list[dict[str, str]] = []
    await run_turn(mediator(deliveries), "What should we do about the vacation?", sender="Sam")
    by_recipient = {d["to"]: d["content"] for d in deliveries}
    assert sorted(by_recipient) == ["Sam", "shared"] and len(deliveries) == 2
    assert by_recipient["Sam"].startswith("Thank you, Sam. You asked: what should we do")
    assert "holiday plans" in by_recipient["shared"] and "Alex," in by_recipient["shared"]


async def test_different_speakers_and_words_give_different_deliveries() -> None:
    first: list[dict[str, str]] = []
    second: list[dict[str, str]] = []
    await run_turn(mediator(first), "We should save more for retirement together.", sender="Alex")
    await run_turn(mediator(second), "We should plan the wedding together.", sender="Sam")
    first_by = {d["to"]: d["content"] for d in first}
    second_by = {d["to"]: d["content"] for d in second}
    assert sorted(first_by) == ["Alex", "shared"] and sorted(second_by) == ["Sam", "shared"]
    assert "retirement" in first_by["shared"] and "wedding" in second_by["shared"]
    assert first != second


async def test_an_undeliverable_reply_is_reported_in_the_final_text() -> None:
    deliveries: list[dict[str, str]] = []
    graph = build_loop(mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=SYSTEM)
    messages = await run_turn(graph, "I'd like to join the conversation.", sender="Jordan")
    calls = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert calls[0]["args"]["recipient"] == "Jordan"
    assert (
        "could not be delivered" in messages[-1].content
        and "unknown recipient Jordan" in messages[-1].content
    )


SCENARIO = [
    ("Alex", "I think we need a monthly budget. We keep arguing about money.", ["Alex", "shared"]),
    ("Sam", "Privately: I'm anxious because I lost $2,000 on a bad investment.", ["Sam"]),
    ("Sam", "I agree we should plan our spending together.", ["Sam", "shared"]),
    ("Alex", "Don't tell Sam, but I want to buy a new car next year.", ["Alex"]),
    ("Alex", "How much should we each put into savings?", ["Alex", "shared"]),
    ("Sam", "I feel relieved that we are talking about this.", ["Sam", "shared"]),
]


async def test_a_six_turn_counselling_session_keeps_private_words_private() -> None:
    from langchain_core.messages import HumanMessage

    deliveries: list[dict[str, str]] = []
    graph = mediator(deliveries)
    history: list = []
    for speaker, text, expected in SCENARIO:
        before = len(deliveries)
        out = await graph.ainvoke({"messages": [*history, HumanMessage(text, name=speaker)]})
        history = out["messages"]
        assert sorted(d["to"] for d in deliveries[before:]) == sorted(expected), text
    shared = " ".join(d["content"] for d in deliveries if d["to"] == "shared")
    for secret in ("$2,000", "investment", "anxious", "car"):
        assert secret not in shared
    to_alex = " ".join(d["content"] for d in deliveries if d["to"] == "Alex")
    assert "$2,000" not in to_alex and "investment" not in to_alex


def test_the_sender_can_come_from_the_message_name() -> None:
    from langchain_core.messages import HumanMessage, SystemMessage

    bound = mediator_model().bind_tools(mediator_tools(("Ana", "Ben", "Cy"), []))
    reply = bound.invoke(
        [
            SystemMessage("Participants: Ana, Ben and Cy"),
            HumanMessage("We agree on the plan.", name="Ben"),
        ]
    )
    assert [(c["name"], c["args"].get("recipient")) for c in reply.tool_calls] == [
        ("reply_privately", "Ben"),
        ("post_to_shared", None),
    ]
    shared = reply.tool_calls[1]["args"]["content"]
    assert shared.startswith("Ben agrees") and "Ana and Cy, is that how you see it too?" in shared


def test_a_greeting_is_welcomed_privately() -> None:
    from langchain_core.messages import HumanMessage, SystemMessage

    bound = mediator_model().bind_tools(mediator_tools(("Alex", "Sam"), []))
    calls = bound.invoke([SystemMessage(SYSTEM), HumanMessage("Hello!", name="Sam")]).tool_calls
    assert [(c["name"], c["args"]["recipient"]) for c in calls] == [("reply_privately", "Sam")]
    assert calls[0]["args"]["content"].startswith("Hello, Sam! I'm here to help you with Alex")


PRIVATE_CHANNEL = SYSTEM + "\nNow speaking: Alex, privately to you (Sam cannot see it)."
SHARED_CHANNEL = SYSTEM + "\nNow speaking: Alex, in the shared space, so everyone has read it."
ABOUT_BOTH = "I'm worried about how much we spend eating out; we need a budget."


async def test_a_message_said_privately_to_the_mediator_is_never_summarised_to_everyone() -> None:
    deliveries: list[dict[str, str]] = []
    loop = build_loop(
        mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=PRIVATE_CHANNEL
    )
    await run_turn(
        loop, ABOUT_BOTH, sender="Alex"
    )  # no "privately" in the words: the channel says it
    assert [d["to"] for d in deliveries] == ["Alex"]
    reply = deliveries[0]["content"]
    assert "won't share it with Sam" in reply
    assert "raise this with Sam in the shared space" in reply


async def test_the_same_message_said_in_the_shared_space_gets_a_shared_post() -> None:
    deliveries: list[dict[str, str]] = []
    loop = build_loop(
        mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=SHARED_CHANNEL
    )
    await run_turn(loop, ABOUT_BOTH, sender="Alex")
    assert sorted(d["to"] for d in deliveries) == ["Alex", "shared"]


async def test_a_money_topic_said_to_everyone_is_summarised_to_everyone() -> None:
    deliveries: list[dict[str, str]] = []
    system = SYSTEM + "\nNow speaking: Sam, in the shared space, so everyone has read it."
    loop = build_loop(mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=system)
    await run_turn(loop, "I think 400 a month for groceries is enough", sender="Sam")
    by_recipient = {d["to"]: d["content"] for d in deliveries}
    assert sorted(by_recipient) == ["Sam", "shared"]
    assert "food costs" in by_recipient["shared"] and "Alex," in by_recipient["shared"]
    assert "400" not in by_recipient["shared"] and "groceries" not in by_recipient["shared"]
    # The same words said to the mediator alone stay private.
    deliveries.clear()
    loop = build_loop(
        mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=PRIVATE_CHANNEL
    )
    await run_turn(loop, "I think 400 a month for groceries is enough", sender="Alex")
    assert [d["to"] for d in deliveries] == ["Alex"]


async def test_an_agreement_is_named_as_common_ground_without_its_figures() -> None:
    deliveries: list[dict[str, str]] = []
    await run_turn(mediator(deliveries), "I agree with Alex, $300 a month for savings sounds fine.", sender="Sam")  # fmt: skip
    shared = next(d["content"] for d in deliveries if d["to"] == "shared")
    assert shared.startswith("Sam agrees on savings") and "common ground" in shared
    assert "Alex, is that how you see it too?" in shared and "300" not in shared
    private = next(d["content"] for d in deliveries if d["to"] == "Sam")
    assert "common ground" in private and "What would help you most" not in private
    # Agreement taken back is no agreement.
    deliveries.clear()
    await run_turn(mediator(deliveries), "I don't agree, we need a bigger budget.", sender="Sam")
    shared = next(d["content"] for d in deliveries if d["to"] == "shared")
    assert "agrees" not in shared and "household budget" in shared


def test_topics_are_whole_words() -> None:
    assert topics_of("I have some credit card debt") == ["debt", "credit card balances"]
    assert "a car purchase" not in topics_of("we keep arguing about the cards")
    assert topics_of("we want to buy a car") == ["a car purchase"]
    assert topics_of("save for the trip") == ["savings", "holiday plans"]
    assert topics_of("our investments and retirement") == ["investing", "retirement"]
    assert topics_of("the rental car") == ["a car purchase"]  # "rent" alone, not "rental"


async def _private_reply_to(text: str, sender: str = "Sam") -> str:
    deliveries: list[dict[str, str]] = []
    loop = build_loop(mediator_model(), mediator_tools(("Alex", "Sam"), deliveries), system=SYSTEM)
    await run_turn(loop, text, sender=sender)
    return next(d["content"] for d in deliveries if d["to"] == sender)


async def test_private_replies_reflect_what_was_said_in_plain_english() -> None:
    assert (await _private_reply_to("Alex, I have some credit card debt.")).startswith(
        "Thank you, Sam. I hear that you have some credit card debt."
    )
    thanks = await _private_reply_to(
        "Thank you for telling me. Let's pay the debt down first.", sender="Alex"
    )
    assert thanks.startswith("Thank you, Alex. I hear that you'd like to pay the debt down first.")
    assert "thank you for telling you" not in thanks.lower()
    hello = await _private_reply_to("Hi, we'd like some help making a budget together.")
    assert hello.startswith("Thank you, Sam. I hear that you'd like some help making a budget")
    only_thanks = await _private_reply_to("Thanks so much!")
    assert only_thanks.startswith("Thank you, Sam. I hear that this matters to you.")


async def test_no_demo_reply_puts_one_partners_words_in_the_others_mouth() -> None:
    for turn in DEMO_TURNS:
        reply = await _private_reply_to(turn.content, sender=turn.sender)
        other = next(name for name in ("Alex", "Sam") if name != turn.sender)
        assert f"I hear that {other}," not in reply
        assert "telling you." not in reply and "I hear that thank" not in reply


async def test_short_answers_with_content_are_reflected_not_skipped() -> None:
    assert (await _private_reply_to("No, I don't want a joint account.")).startswith(
        "Thank you, Sam. I hear that no, you don't want a joint account."
    )
    assert (await _private_reply_to("Hi, I have debt.")).startswith(
        "Thank you, Sam. I hear that you have debt."
    )
    assert (await _private_reply_to("Thanks, I feel better.")).startswith(
        "Thank you, Sam. I hear that you feel better."
    )
