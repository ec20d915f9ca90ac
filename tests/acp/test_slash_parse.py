"""How a typed message is told apart from a slash command, and which commands each front end
runs: generated messages and tables, and the reported cases (``//`` escapes, an unknown command
is never plain text, a profile's command never replaces the table's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profile import ProfileKey
from agents.profile_registry import PROFILE_NAMES, get_traits
from agents.slash_commands import (
    COMMANDS,
    EVERYWHERE,
    FrontEnd,
    SlashInput,
    command_named,
    commands_for,
    matching,
    parse_slash,
    runs_elsewhere,
)
from weaver_tui.keymap import palette_commands

NAMES = [c.name for c in COMMANDS]
FRONT_ENDS: list[FrontEnd] = ["composer", "acp", "ask"]
WHITE_SPACE = [chr(c) for c in range(0x3001) if chr(c).isspace()]
"""Every character Python counts as white space (tab, newline, NBSP, the ideographic space ...)."""
SPACES = st.text(alphabet=WHITE_SPACE, min_size=1, max_size=3)


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
        assert typed.text == message  # a command keeps every character it was typed with
        assert (typed.kind == "command") == (command_named(typed.name) is not None)
        assert message[1:].startswith(typed.name)


@settings(max_examples=200, deadline=None)
@given(message=st.text(max_size=40))
def test_the_escape_round_trips_any_text(message: str) -> None:
    """Whatever a person wants to send, ``/`` + it is sent as exactly it when it starts with
    ``/``; text that does not start with ``/`` is sent as typed."""
    escaped = "/" + message if message.startswith("/") else message
    assert parse_slash(escaped) == SlashInput("text", message)


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(NAMES), space=SPACES, argument=st.text(max_size=20))
def test_a_command_takes_what_follows_its_name_as_its_argument(
    name: str, space: str, argument: str
) -> None:
    typed = parse_slash(f"/{name}{space}{argument}")
    assert (typed.kind, typed.name, typed.argument) == ("command", name, argument.strip())


slash_names = st.sampled_from([*NAMES, "kb", "invite", "x", "new"])


@settings(max_examples=100, deadline=None)
@given(
    keys=st.lists(
        st.tuples(slash_names, st.sets(st.sampled_from(FRONT_ENDS), min_size=1)), max_size=5
    ),
    front_end=st.sampled_from(FRONT_ENDS),
)
def test_a_front_end_lists_only_what_it_runs_and_the_table_keeps_its_names(
    keys: list[tuple[str, set[FrontEnd]]], front_end: FrontEnd
) -> None:
    declared = [
        ProfileKey(f"Command {i}", "what it does", "m:f", slash=name, front_ends=frozenset(fe))
        for i, (name, fe) in enumerate(keys)
    ]
    listed = commands_for(front_end, declared)
    assert len({c.name for c in listed}) == len(listed)
    assert all(front_end in c.front_ends for c in listed)
    for command in listed:
        if command.name in NAMES:  # the table's meaning, never a profile's
            assert command.profile_key is None
            assert command == command_named(command.name)
        else:
            assert command.profile_key is not None
            key = declared[command.profile_key]
            assert (key.slash, key.command) == (command.name, command.palette)
    for name, fe in keys:
        if front_end in fe and name not in NAMES:
            assert command_named(name, listed) is not None


def test_every_command_the_composer_runs_is_a_palette_command() -> None:
    """The composer runs the palette's own command: each one it names exists (``help`` is the
    composer's own list)."""
    palette = {item.command for item in palette_commands()}
    for command in commands_for("composer"):
        assert command.palette in palette or command.name == "help", command.name


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_a_profiles_own_commands_join_each_front_end_it_names(profile: str) -> None:
    keys = get_traits(profile).keys
    for front_end in FRONT_ENDS:
        names = {c.name for c in commands_for(front_end, keys)}
        assert {k.slash for k in keys if k.slash and front_end in k.front_ends} <= names


def test_paper_pilot_declares_kb_once_as_key_palette_entry_and_command() -> None:
    [kb] = [k for k in get_traits("paper-pilot").keys if k.slash == "kb"]
    assert kb.front_ends == EVERYWHERE
    for front_end in FRONT_ENDS:
        command = command_named("kb", commands_for(front_end, get_traits("paper-pilot").keys))
        assert command is not None
        assert command.palette == kb.command


@pytest.mark.parametrize(
    ("message", "kind", "text"),
    [
        ("/help", "command", "/help"),
        ("/helpme", "unknown", "/helpme"),
        ("/ help", "unknown", "/ help"),
        ("//help", "text", "/help"),
        ("/etc/hosts is missing", "unknown", "/etc/hosts is missing"),
        ("hello /help", "text", "hello /help"),
        ("/search\u00a0rank fusion", "command", "/search\u00a0rank fusion"),
    ],
)
def test_reported_cases(message: str, kind: str, text: str) -> None:
    typed = parse_slash(message)
    assert (typed.kind, typed.text) == (kind, text)


@settings(max_examples=200, deadline=None)
@given(
    query=st.text(alphabet="abcdehiklmnoprstuvx", max_size=4), front_end=st.sampled_from(FRONT_ENDS)
)
def test_the_menu_offers_prefixes_first_then_every_name_holding_the_letters_in_order(
    query: str, front_end: FrontEnd
) -> None:
    commands = commands_for(front_end, get_traits("paper-pilot").keys)
    offered = matching(query, commands)
    assert len(set(offered)) == len(offered)
    prefixed = [c for c in offered if c.name.startswith(query)]
    assert offered[: len(prefixed)] == prefixed  # the name's prefixes come first
    assert prefixed == [c for c in commands if c.name.startswith(query)]  # in the table's order

    def in_order(name: str) -> bool:
        rest = name
        for letter in query:
            at = rest.find(letter)
            if at < 0:
                return False
            rest = rest[at + 1 :]
        return True

    assert {c.name for c in offered} == {c.name for c in commands if in_order(c.name)}
    if not query:
        assert offered == list(commands)


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(NAMES) | st.text(max_size=8), front_end=st.sampled_from(FRONT_ENDS))
def test_a_command_of_another_front_end_says_where_it_runs(name: str, front_end: FrontEnd) -> None:
    said = runs_elsewhere(name, front_end)
    command = command_named(name)
    if command is None or front_end in command.front_ends:
        assert said == ""
    else:
        assert said.startswith("runs in ")
