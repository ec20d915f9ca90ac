"""Without tools the offline model still answers from the conversation it is given."""

from __future__ import annotations

import json
from typing import Literal

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from pydantic import BaseModel, Field

from agents.offline import OfflineChatModel
from tests.offline.conftest import build_loop, run_turn


def test_a_greeting_is_answered_and_names_the_offline_model(model: OfflineChatModel) -> None:
    reply = model.invoke("Hello!").content
    assert reply.startswith("Hello! I'm **weaver-offline**")
    assert "- " in reply


def test_model_and_key_questions_explain_configuration(model: OfflineChatModel) -> None:
    reply = model.invoke("How do I use my own API key with OpenAI?").content
    assert reply.startswith("To use a provider's model")
    assert "```bash" in reply and "WEAVER_PROVIDER=openai" in reply and "WEAVER_API_KEY" in reply
    other = model.invoke("Which model are you?").content
    assert other.startswith("You're talking to **weaver-offline**")


def test_an_answer_refers_to_the_related_earlier_question(model: OfflineChatModel) -> None:
    history = [
        HumanMessage("How do Textual workers run blocking code?"),
        AIMessage("..."),
        HumanMessage("What is the weather like?"),
        AIMessage("..."),
        HumanMessage("Can workers be cancelled?"),
    ]
    reply = model.invoke(history).content
    assert reply.startswith("You asked: **Can workers be cancelled**")
    assert 'Earlier you asked:** "How do Textual workers run blocking code?"' in reply
    assert "**Turn:** 3" in reply


def test_a_recap_lists_what_was_asked(model: OfflineChatModel) -> None:
    history = [
        HumanMessage("Tell me about LangGraph"),
        AIMessage("..."),
        HumanMessage("What did I ask so far?"),
    ]
    reply = model.invoke(history).content
    assert "1. Tell me about LangGraph" in reply and "`langgraph`" in reply


def test_pasted_code_gets_an_outline_in_markdown(model: OfflineChatModel) -> None:
    code = "```python\nimport re\n\ndef parse(line):\n    # TODO handle errors\n    return re.split(',', line)\n\nclass Row:\n    pass\n```\nwhat is this?"
    reply = model.invoke(code).content
    assert "`parse(line)` (line 3)" in reply and "`Row` (line 7)" in reply and "`re`" in reply
    assert (
        "TODO/FIXME) on line 4" in reply and "```python\ndef parse(line):\nclass Row:\n```" in reply
    )


def test_a_json_request_returns_the_named_keys(model: OfflineChatModel) -> None:
    reply = model.invoke(
        'Return a JSON object with keys "title" and "tags" for: a terminal chat app in Textual'
    )
    data = json.loads(reply.content)
    assert data["title"] == "a terminal chat app in Textual"
    assert "textual" in data["tags"]


class RouterDecision(BaseModel):
    """The intent of a research question."""

    type: Literal["factual", "comparative", "multi_hop", "exploratory", "follow_up"]
    confidence: float = Field(ge=0, le=1)


class SlotFilling(BaseModel):
    entities: list[str]
    dimensions: list[str]
    reformulated_query: str


class CriticVerdict(BaseModel):
    passed: bool
    score: float = Field(ge=0, le=10)
    feedback: str


def test_structured_output_follows_the_question(model: OfflineChatModel) -> None:
    router = model.with_structured_output(RouterDecision)
    assert router.invoke("What is LoRA?").type == "factual"
    assert router.invoke("Compare LoRA and prefix tuning").type == "comparative"
    assert router.invoke("Give me an overview of recent trends in RAG").type == "exploratory"
    slots = model.with_structured_output(SlotFilling).invoke(
        "Please tell me the difference between LoRA and QLoRA in terms of memory and speed?"
    )
    assert slots.entities == ["LoRA", "QLoRA"]
    assert slots.dimensions == ["memory", "speed"]
    assert (
        slots.reformulated_query
        == "the difference between LoRA and QLoRA in terms of memory and speed"
    )
    critic = model.with_structured_output(CriticVerdict)
    assert critic.invoke("Answer: LoRA freezes weights [1].").passed is True
    assert critic.invoke("The answer is wrong and the citation is missing.").passed is False


async def test_an_unknown_tool_is_used_only_when_the_request_matches_it() -> None:
    asked: list[str] = []

    @tool
    def get_weather(city: str) -> str:
        """Get the current weather for a city."""
        asked.append(city)
        return f"{city}: 18°C, light rain"

    graph = build_loop(OfflineChatModel(), [get_weather])
    messages = await run_turn(graph, "What's the weather in Paris today?")
    assert asked == ["Paris"]
    assert "18°C, light rain" in messages[-1].content
    messages = await run_turn(graph, "Tell me a joke about databases")
    assert asked == ["Paris"] and len(messages) == 1


def test_a_required_call_is_made_when_tool_choice_is_any() -> None:
    @tool
    def lookup_order(order_id: str) -> str:
        """Look up an order by its id."""
        return order_id

    bound = OfflineChatModel().bind_tools([lookup_order], tool_choice="any")
    call = bound.invoke("hello").tool_calls[0]
    assert call["name"] == "lookup_order" and isinstance(call["args"]["order_id"], str)


def test_a_title_request_gets_a_short_title_from_the_conversation(model: OfflineChatModel) -> None:
    assert model.invoke("Give a short title for: how do Textual workers cancel tasks?").content == (
        "Textual Workers Cancel Tasks"
    )
    history = [
        HumanMessage("Tell me about SQLite WAL mode"),
        AIMessage("..."),
        HumanMessage("Suggest a title for our chat"),
    ]
    assert model.invoke(history).content == "SQLite WAL Mode"


def test_a_plan_request_gets_one_step_per_part_of_the_task(model: OfflineChatModel) -> None:
    reply = model.invoke(
        "Make a plan: compare LoRA with adapters, measure memory use, and then summarise"
    ).content
    assert reply.splitlines()[2:] == [
        "1. Compare LoRA with adapters.",
        "2. Measure memory use.",
        "3. Summarise.",
        "4. Put the findings together and check them against the question.",
    ]
