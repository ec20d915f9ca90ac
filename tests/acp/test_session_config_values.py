"""A config value is taken only when it is one of its option's own values (an allowlist), and
what a session is told about usage never invents a number: generated cases and reported ones."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from acp import RequestError
from acp.schema import SessionConfigOptionSelect, SessionConfigSelectOption
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profile_registry import list_traits
from agents.runtime.events import Usage
from storage.models import MessageRecord
from weaver_tui.core.acp_agent.session_config import ConfigChoices
from weaver_tui.core.acp_agent.turn_report import prompt_usage, usage_update

PROFILES = [name for name, _ in list_traits()]
choices = st.builds(
    ConfigChoices,
    provider=st.sampled_from(["openai", "deepseek", "offline", "openai-compatible", "nope"]),
    model=st.sampled_from(["gpt-4o", "deepseek-chat", "offline", "default", "x"]),
    profile=st.sampled_from(PROFILES),
    conversation_started=st.booleans(),
    project_instructions=st.none() | st.booleans(),
)
config_ids = st.sampled_from(["model", "profile", "project_instructions"]) | st.text(max_size=12)
values = st.sampled_from(
    [*PROFILES, "gpt-4o", "gpt-4.1", "deepseek-reasoner", "offline"]
) | st.text(max_size=12)


def _allowed(choice: ConfigChoices, config_id: str) -> list[str]:
    for option in choice.options():
        if isinstance(option, SessionConfigOptionSelect) and option.id == config_id:
            return [c.value for c in option.options if isinstance(c, SessionConfigSelectOption)]
    return []


@settings(max_examples=200, deadline=None)
@given(choice=choices, config_id=config_ids, value=values | st.booleans())
def test_a_value_is_taken_only_from_its_options_own_values(
    choice: ConfigChoices, config_id: str, value: object
) -> None:
    if config_id == "project_instructions" and choice.project_instructions is not None:
        if isinstance(value, bool):
            assert choice.checked(config_id, value) is value
        else:
            with pytest.raises(RequestError):
                choice.checked(config_id, value)
        return
    allowed = _allowed(choice, config_id)
    locked = config_id == "profile" and choice.conversation_started and value != choice.profile
    if isinstance(value, str) and value in allowed and not locked:
        assert choice.checked(config_id, value) == value
        return
    with pytest.raises(RequestError) as refused:
        choice.checked(config_id, value)
    assert "\n" not in str(refused.value)


@settings(max_examples=100, deadline=None)
@given(choice=choices)
def test_the_current_values_are_among_the_options(choice: ConfigChoices) -> None:
    assert choice.model in _allowed(choice, "model")
    assert choice.profile in _allowed(choice, "profile")


def _record(number: int, content: str) -> MessageRecord:
    now = datetime.now(UTC)
    return MessageRecord(
        id=f"m{number}",
        conversation_id="c",
        parent_id=f"m{number - 1}" if number else None,
        depth=number,
        version=1,
        role="user" if number % 2 == 0 else "assistant",
        content=content,
        created_at=now,
    )


usages = st.none() | st.builds(
    Usage,
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.integers(-5, 10**6),
    st.none() | st.integers(-1, 10**5),
    st.none() | st.integers(-1, 10**5),
    st.none() | st.floats(-1, 100, allow_nan=False),
)


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(st.text(max_size=200), max_size=12),
    window=st.none() | st.integers(-10, 10**6),
    usage=usages,
)
def test_usage_is_told_only_with_a_known_window_and_only_as_reported(
    texts: list[str], window: int | None, usage: Usage | None
) -> None:
    branch = [_record(i, text) for i, text in enumerate(texts)]
    update = usage_update(branch, 20, window, usage)
    if window is None or window <= 0:
        assert update is None
    else:
        assert update is not None
        assert update.size == window
        assert update.used >= 0
        reported = usage.cost if usage is not None else None
        if reported is None or reported < 0:
            assert update.cost is None
        else:
            assert update.cost is not None
            assert update.cost.amount == reported
    told = prompt_usage(usage)
    if usage is None or usage.total_tokens <= 0:
        assert told is None
    else:
        assert told is not None
        assert (told.input_tokens, told.output_tokens) == (usage.input_tokens, usage.output_tokens)
        assert told.thought_tokens == (
            usage.reasoning_tokens if (usage.reasoning_tokens or 0) >= 0 else None
        )
