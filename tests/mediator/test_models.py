"""The mediator's models: the event, the actions, and SpaceState, every field documented."""

from __future__ import annotations

import typing
from datetime import datetime

import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from agents.profiles.mediator.state import SpaceState
from agents.shared_space.actions import PostToShared, ReplyPrivately, action_from_tool_call
from agents.shared_space.events import UserMessageEvent


@pytest.mark.parametrize("model", [UserMessageEvent, ReplyPrivately, PostToShared])
def test_every_model_field_has_a_description(model: type[BaseModel]) -> None:
    for name, info in model.model_fields.items():
        assert info.description, f"{model.__name__}.{name} has no description"


def test_every_state_field_is_documented_and_steps_accumulate() -> None:
    hints = typing.get_type_hints(SpaceState, include_extras=True)
    assert set(hints) == {"messages", "input", "action_to_execute", "tool_output", "steps"}
    for name, hint in hints.items():
        while typing.get_origin(hint) in (typing.NotRequired, typing.Required):
            hint = typing.get_args(hint)[0]
        fields = [m for m in hint.__metadata__ if isinstance(m, FieldInfo)]
        assert fields, f"SpaceState.{name} has no description"
        assert fields[0].description, f"SpaceState.{name} has no description"
    steps = typing.get_args(typing.get_type_hints(SpaceState, include_extras=True)["steps"])[0]
    assert steps.__metadata__[-1](["a"], ["b"]) == ["a", "b"]


def test_user_message_event_becomes_a_named_message_and_record_meta() -> None:
    event = UserMessageEvent(sender="Sam", content="hello")
    assert isinstance(event.timestamp, datetime)
    assert (event.to_message().name, event.to_message().content) == ("Sam", "hello")
    assert event.record_meta() == {"sender": "Sam", "visibility": "Sam"}
    shared = UserMessageEvent(sender="Sam", content="hi all", visibility="shared")
    assert shared.record_meta() == {"sender": "Sam", "visibility": "shared"}


def test_tool_calls_parse_into_actions() -> None:
    assert action_from_tool_call(
        {"name": "reply_privately", "args": {"recipient": "Alex", "content": "hi"}}
    ) == ReplyPrivately(recipient="Alex", content="hi")
    assert action_from_tool_call({"name": "post_to_shared", "args": {"content": "all"}}) == (
        PostToShared(content="all")
    )
    assert action_from_tool_call({"name": "reply_privately", "args": {"content": "x"}}) is None
    assert action_from_tool_call({"name": "read_file", "args": {"path": "x"}}) is None
