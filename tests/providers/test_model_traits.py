"""What a preset's model needs on the wire comes from the preset table: a thinking model of
DeepSeek or Kimi gets its reasoning back with its tool calls from the first request, Qwen's
thinking switch is sent, a plain model sends neither."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from pydantic import SecretStr

from agents.providers import ProviderConfig, make_chat_model
from agents.providers.presets import PRESETS
from tests.providers.conftest import TEST_KEY
from tests.support.fake_openai import FakeOpenAI


def model_on(fake: FakeOpenAI, provider: str, model: str) -> Any:
    config = ProviderConfig(
        provider=provider,
        model=model,
        base_url=fake.base_url,
        api_key=SecretStr(TEST_KEY),
        timeout=5.0,
    )
    return make_chat_model(config).model


TOOL_ROUND = [
    HumanMessage("where is greet?"),
    AIMessage(
        "",
        tool_calls=[{"id": "c1", "name": "read_file", "args": {"path": "a.py"}}],
        additional_kwargs={"reasoning_content": "I should read a.py"},
    ),
    ToolMessage("def greet(): ...", tool_call_id="c1"),
]


@pytest.mark.parametrize(
    ("provider", "model"), [("deepseek", "deepseek-reasoner"), ("moonshot", "kimi-k2-thinking")]
)
async def test_a_thinking_preset_sends_reasoning_back_from_the_first_request(
    fake_openai: FakeOpenAI, provider: str, model: str
) -> None:
    fake_openai.needs_reasoning_back = True
    fake_openai.script("In a.py.")

    answer = await model_on(fake_openai, provider, model).ainvoke(TOOL_ROUND)

    assert answer.content == "In a.py."
    assert len(fake_openai.chat_requests) == 1
    assert fake_openai.last_body["messages"][1]["reasoning_content"] == "I should read a.py"


async def test_a_plain_model_sends_no_reasoning_and_qwen_gets_its_thinking_switch(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script("one", "two")

    await model_on(fake_openai, "deepseek", "deepseek-chat").ainvoke(TOOL_ROUND)
    assert "reasoning_content" not in fake_openai.last_body["messages"][1]
    await model_on(fake_openai, "dashscope", "qwen-plus").ainvoke(TOOL_ROUND)
    assert fake_openai.last_body["enable_thinking"] is False


def test_every_preset_model_with_traits_is_one_it_suggests() -> None:
    for preset in PRESETS.values():
        assert set(preset.model_traits) <= set(preset.suggested_models), preset.name
