"""How the offline model reads requests and tool output (the parsing under every rule)."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agents.offline.conversation import read_conversation
from agents.offline.rules.sources import parse_sources
from agents.profiles.ide_helper.offline.intent import parse_code_intent


@pytest.mark.parametrize(
    ("text", "files", "directories", "pattern", "search"),
    [
        ("Explain `weaver_tui/app.py`", ("weaver_tui/app.py",), (), None, None),
        ("compare README.md and pyproject.toml", ("README.md", "pyproject.toml"), (), None, None),
        ("list everything under storage/", (), ("storage",), None, None),
        ("show me all markdown files", (), (), "*.md", None),
        ("find test_*.py files", (), (), "test_*.py", None),
        ("where is ConversationStore defined?", (), (), None, "ConversationStore"),
        ("grep for 'TODO'", (), (), None, "TODO"),
        ("who calls make_tools()?", (), (), None, "make_tools"),
        ("is this and/or that a path?", (), (), None, None),
    ],
)
def test_code_requests_are_read_for_files_folders_globs_and_terms(
    text: str, files: tuple, directories: tuple, pattern: str | None, search: str | None
) -> None:
    intent = parse_code_intent(text)
    assert intent.files == files
    assert intent.directories == directories
    assert intent.pattern == pattern
    assert (intent.search_term if intent.wants_search else None) == search


def test_edit_requests_name_what_changes() -> None:
    assert parse_code_intent('replace "Hello" with "Hi" in src/app.py').rename == ("Hello", "Hi")
    assert parse_code_intent("rename `Foo` to `Bar`").rename == ("Foo", "Bar")
    docstring = parse_code_intent("add a docstring to the function load_config in a.py")
    assert docstring.docstring and docstring.docstring_target == "load_config"


def test_sources_are_read_from_labelled_blocks_json_and_numbered_text() -> None:
    labelled = parse_sources(
        "[react#Idea] ReAct — Idea (score 3.8)\nReAct interleaves reasoning.\n\n[rewoo#Idea] ReWOO — Idea\nIt plans first."
    )
    assert [(s.cite, s.title, s.text) for s in labelled] == [
        ("react#Idea", "ReAct — Idea", "ReAct interleaves reasoning."),
        ("rewoo#Idea", "ReWOO — Idea", "It plans first."),
    ]
    hits = json.dumps(
        [
            {
                "page_content": "Adapters add layers.",
                "metadata": {"source": "a.pdf", "title": "Adapters"},
            }
        ]
    )
    assert [(s.cite, s.title, s.location) for s in parse_sources(hits, start=3)] == [
        ("3", "Adapters", "a.pdf")
    ]
    numbered = parse_sources("1. First paper\nText one.\n2. Second paper\nText two.")
    assert [s.title for s in numbered] == ["First paper", "Second paper"]
    assert parse_sources("No notes match 'x'.") == []


def test_the_conversation_reading_keeps_this_turn_apart_from_earlier_ones() -> None:
    messages = [
        SystemMessage("Mediate.\nParticipants: Alex, Sam"),
        HumanMessage("first", name="Alex"),
        AIMessage(
            "", tool_calls=[{"name": "post_to_shared", "args": {"content": "a"}, "id": "call_1"}]
        ),
        ToolMessage("Posted.", tool_call_id="call_1"),
        HumanMessage("second", name="Sam"),
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "reply_privately",
                    "args": {"recipient": "Sam", "content": "b"},
                    "id": "call_2",
                }
            ],
        ),
        ToolMessage("Delivered.", tool_call_id="call_2"),
    ]
    conv = read_conversation(messages)
    assert (conv.sender, conv.user_text, conv.participants) == ("Sam", "second", ("Alex", "Sam"))
    assert conv.earlier_user_texts == ("first",)
    assert [(r.name, r.content) for r in conv.results] == [("reply_privately", "Delivered.")]
    assert conv.earlier_tool_output == ("Posted.",)
    assert conv.prior_call_count == 2
    assert conv.already_called("reply_privately", {"content": "b", "recipient": "Sam"})
    assert not conv.already_called("post_to_shared", {"content": "a"})


def test_the_speaker_is_read_from_the_message_name_and_mapped_to_a_participant() -> None:
    system = SystemMessage("You are a mediator.\nParticipants: Mary Jane, Sam")
    conv = read_conversation([system, HumanMessage("[Sam]: hi", name="Mary_Jane")])
    assert (conv.sender, conv.user_text) == ("Mary Jane", "[Sam]: hi")  # the text is only text
    assert read_conversation([HumanMessage("hello")]).sender is None
