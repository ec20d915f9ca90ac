"""The offline model searches a knowledge base with the question and cites what it found."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agents.offline import OfflineChatModel
from tests.offline.conftest import build_loop, run_turn
from tests.offline.tools import knowledge_tools


async def test_the_question_is_searched_and_the_answer_cites_the_sources() -> None:
    queries: list[str] = []
    graph = build_loop(OfflineChatModel(), knowledge_tools(queries))
    messages = await run_turn(
        graph, "Can you explain how LoRA reduces the number of trainable parameters?"
    )
    assert queries == ["how LoRA reduces the number of trainable parameters"]
    answer = messages[-1].content
    assert (
        "This reduces the number of trainable parameters by 10,000 times for GPT-3 [1]." in answer
    )
    assert "- [1] LoRA: Low-Rank Adaptation of Large Language Models (papers/lora.pdf)" in answer
    assert "Attention Is All You Need" not in answer


async def test_json_results_are_read_as_sources_too() -> None:
    queries: list[str] = []
    graph = build_loop(OfflineChatModel(), knowledge_tools(queries, as_json=True))
    answer = (await run_turn(graph, "What does QLoRA finetune on a single GPU?"))[-1].content
    assert "QLoRA finetunes a 65B parameter model on a single 48GB GPU [1]." in answer
    assert "[1] QLoRA: Efficient Finetuning of Quantized LLMs" in answer


def test_a_follow_up_pronoun_is_resolved_from_the_previous_question() -> None:
    queries: list[str] = []
    bound = OfflineChatModel().bind_tools(knowledge_tools(queries))
    history = [
        HumanMessage("What is LoRA?"),
        AIMessage("LoRA freezes the pretrained weights [1]."),
        HumanMessage("Does it add inference latency?"),
    ]
    call = bound.invoke(history).tool_calls[0]
    assert call["name"] == "query_knowledge_hub"
    assert call["args"] == {"query": "Does LoRA add inference latency"}


def test_nothing_relevant_returned_is_said_plainly() -> None:
    bound = OfflineChatModel().bind_tools(knowledge_tools([]))
    history = [
        HumanMessage("What about protein folding?"),
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "query_knowledge_hub",
                    "args": {"query": "protein folding"},
                    "id": "call_1",
                }
            ],
        ),
        ToolMessage(
            "[1] Attention Is All You Need\nThe Transformer relies on attention.",
            tool_call_id="call_1",
        ),
    ]
    answer = bound.invoke(history).content
    assert "Nothing returned answers **What about protein folding**" in answer
    assert "[1] Attention Is All You Need" in answer
