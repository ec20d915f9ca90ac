"""How a typed message is told apart from a slash command: generated messages and the
reported cases (``//`` escapes, an unknown command is never plain text)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.slash_commands import COMMANDS, command_named, parse_slash

NAMES = [c.name for c in COMMANDS]


@settings(max_examples=200, deadline=None)
@given(message=st.text(max_size=40) | st.sampled_from(NAMES).map(lambda n: "/" + n))
def test_no_message_is_lost_or_taken_for_a_command_it_does_not_name(message: str) -> None:
    typed = parse_slash(message)
    if message.startswith("//"):
        assert (typed.kind, typed.text) == ("text", message[1:])
    elif not message.startswith("/"):
        assert (typed.kind, typed.text) == ("text", message)
    else:
        assert typed.kind in ("command", "unknown")
        assert (typed.kind == "command") == (command_named(typed.name) is not None)
        assert message[1:].startswith(typed.name)


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    space=st.sampled_from([" ", "  ", "\t", "\n"]),
    argument=st.text(max_size=20),
)
def test_a_command_takes_what_follows_its_name_as_its_argument(
    name: str, space: str, argument: str
) -> None:
    typed = parse_slash(f"/{name}{space}{argument}")
    assert (typed.kind, typed.name, typed.argument) == ("command", name, argument.strip())


@pytest.mark.parametrize(
    ("message", "kind", "text"),
    [
        ("/help", "command", "/help"),
        ("/helpme", "unknown", "/helpme"),
        ("/ help", "unknown", "/ help"),
        ("//help", "text", "/help"),
        ("/etc/hosts is missing", "unknown", "/etc/hosts is missing"),
        ("hello /help", "text", "hello /help"),
    ],
)
def test_reported_cases(message: str, kind: str, text: str) -> None:
    typed = parse_slash(message)
    assert (typed.kind, typed.text) == (kind, text)
