"""Ollama's 404 for a model it has not pulled keeps its remedy, ``ollama pull NAME``, in the
one sentence the user sees (its exact bodies, through the real ``ChatOpenAI`` over HTTP)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.errors import ModelNotFoundError
from agents.providers import ChatModelHandle
from tests.support.fake_openai import FakeOpenAI, Reply


async def error_for(handle: ChatModelHandle) -> ModelNotFoundError:
    try:
        await handle.model.ainvoke("hello")
    except Exception as exc:  # noqa: BLE001 (what the call raises is what gets translated)
        error = handle.translate_error(exc)
        assert isinstance(error, ModelNotFoundError), error
        return error
    raise AssertionError("the call did not fail")


@pytest.mark.parametrize("wrapped", [True, False], ids=["openai-endpoint", "native-body"])
async def test_a_model_ollama_has_not_pulled_is_named_with_the_pull_command(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], wrapped: bool
) -> None:
    fake_openai.script(Reply.ollama_model_not_found("llama3.2", wrapped=wrapped))

    error = await error_for(fake_model(model="llama3.2"))

    assert "ollama pull llama3.2" in error.user_message
    assert error.user_message.endswith(".")
    assert "\n" not in error.user_message


async def test_another_404_keeps_its_own_sentence(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply.model_not_found("gpt-nine"))

    error = await error_for(fake_model(model="gpt-nine"))

    assert "pull" not in error.user_message


# Ollama's names: an optional namespace, a family, an optional tag (never key-shaped).
model_names = st.builds(
    lambda space, family, tag: f"{space}{family}{tag}",
    st.sampled_from(["", "library/", "hf.co/bartowski/", "user-1/"]),
    st.from_regex(r"[a-z][a-z0-9]{0,10}(?:[.-][a-z0-9]{1,6}){0,2}", fullmatch=True).filter(
        lambda name: not name.startswith(("sk-", "pk-", "ak-", "key-"))
    ),
    st.sampled_from(["", ":latest", ":7b", ":3b-instruct-q4_K_M", ":0.5b"]),
)


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=model_names, wrapped=st.booleans())
async def test_the_pull_command_names_any_model_as_configured(
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
    name: str,
    wrapped: bool,
) -> None:
    fake_openai.reset()
    fake_openai.script(Reply.ollama_model_not_found(name, wrapped=wrapped))

    error = await error_for(fake_model(model=name))

    assert f"`ollama pull {name}`" in error.user_message
    assert error.user_message.endswith(".")
    assert "\n" not in error.user_message
