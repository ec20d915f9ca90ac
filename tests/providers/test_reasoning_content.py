"""A thinking model's ``reasoning_content`` reaches the message apart from its content, and an
assistant message's reasoning never goes back to the server."""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage

from agents.providers import ChatModelHandle
from agents.providers.thinking import REASONING_KEY
from tests.support.fake_openai import FakeOpenAI, Reply


async def test_streamed_reasoning_content_is_kept_in_additional_kwargs(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply(reasoning=["Let me ", "think."], deltas=["Yes."], lockstep=True))

    chunks: list[AIMessageChunk] = []
    async for chunk in fake_model().model.astream([HumanMessage("Well?")]):
        chunks.append(chunk)
        fake_openai.step()  # the next delta only now: each one comes out on its own

    thoughts = [c.additional_kwargs.get(REASONING_KEY) for c in chunks]
    assert [t for t in thoughts if t] == ["Let me ", "think."]
    whole = chunks[0]
    for chunk in chunks[1:]:
        whole = whole + chunk
    assert whole.content == "Yes."
    assert whole.additional_kwargs[REASONING_KEY] == "Let me think."


def test_a_finished_completion_keeps_its_reasoning_content(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply("Yes.", reasoning=["Because."]))
    model = fake_model().model.model_copy(update={"streaming": False})

    message = model.invoke([HumanMessage("Well?")])

    assert fake_openai.last_body.get("stream") is not True
    assert message.content == "Yes."
    assert message.additional_kwargs[REASONING_KEY] == "Because."


def test_reasoning_is_never_sent_back(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply("ok"))
    earlier = AIMessage(
        content="  <think>PRIVATE</think>\n\nThe answer.",
        additional_kwargs={REASONING_KEY: "ALSO PRIVATE"},
    )

    fake_model().model.invoke([HumanMessage("q"), earlier, HumanMessage("and?")])

    assistant = fake_openai.last_body["messages"][1]
    assert assistant == {"role": "assistant", "content": "The answer."}
