"""The offline model drives the ide-helper's tools from what the user asks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from tests.offline.conftest import build_loop, run_turn
from tests.offline.tools import code_tools, ide_helper_model


def first_calls(project: Path, text: str, **bind: object) -> list[dict]:
    bound = ide_helper_model().bind_tools(code_tools(project), **bind)
    return [
        {"name": c["name"], "args": c["args"]}
        for c in bound.invoke([HumanMessage(text)]).tool_calls
    ]


def test_a_named_file_is_read_with_its_line_range(project: Path) -> None:
    assert first_calls(project, "What does src/demo/app.py do?") == [
        {"name": "read_file", "args": {"path": "src/demo/app.py"}}
    ]
    assert first_calls(project, "Explain lines 7-8 of `src/demo/app.py`") == [
        {"name": "read_file", "args": {"path": "src/demo/app.py", "start_line": 7, "end_line": 8}}
    ]


def test_listing_requests_list_files_with_the_users_glob(project: Path) -> None:
    assert first_calls(project, "list the files in src/demo") == [
        {"name": "list_files", "args": {"directory": "src/demo"}}
    ]
    assert first_calls(project, "what's in the tests folder? only *.py") == [
        {"name": "list_files", "args": {"directory": "tests", "pattern": "*.py"}}
    ]


def test_a_list_as_a_noun_asks_for_no_listing(project: Path) -> None:
    assert first_calls(project, "how do I reverse a list in python?") == []
    assert first_calls(project, "list the python files") == [
        {"name": "list_files", "args": {"directory": ".", "pattern": "*.py"}}
    ]


def test_a_listing_asked_beside_a_named_file_is_listed_and_the_file_read(project: Path) -> None:
    assert first_calls(project, "list the files here and read README.md") == [
        {"name": "list_files", "args": {"directory": "."}},
        {"name": "read_file", "args": {"path": "README.md"}},
    ]
    assert first_calls(project, "show me the files in src/demo, then read src/demo/app.py") == [
        {"name": "list_files", "args": {"directory": "src/demo"}},
        {"name": "read_file", "args": {"path": "src/demo/app.py"}},
    ]
    # Naming files to read is not a request for a listing.
    assert first_calls(project, "read the files README.md and src/demo/app.py") == [
        {"name": "read_file", "args": {"path": "README.md"}},
        {"name": "read_file", "args": {"path": "src/demo/app.py"}},
    ]


async def test_a_listing_and_a_read_are_both_answered(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "list the files here and read README.md")
    assert [type(m).__name__ for m in messages] == [
        "AIMessage", "ToolMessage", "ToolMessage", "AIMessage"
    ]  # fmt: skip
    answer = messages[-1].content
    assert "`src/demo/util.py`" in answer
    assert "A tiny demo project." in answer


def test_search_requests_search_for_the_named_identifier(project: Path) -> None:
    assert first_calls(project, "where is slugify used?") == [
        {"name": "search_code", "args": {"query": "slugify"}}
    ]
    assert first_calls(project, 'find "Hello" in the code') == [
        {"name": "search_code", "args": {"query": "Hello"}}
    ]


def test_tool_choice_none_means_no_calls(project: Path) -> None:
    assert first_calls(project, "What does src/demo/app.py do?", tool_choice="none") == []


async def test_reading_a_file_ends_with_a_summary_of_its_real_content(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "What does src/demo/app.py do?")
    assert [type(m).__name__ for m in messages] == ["AIMessage", "ToolMessage", "AIMessage"]
    answer = messages[-1].content
    assert "18 lines of Python" in answer
    assert "Load settings and greet users." in answer
    for name in ("load_config", "Greeter", "main"):
        assert f"`{name}`" in answer
    assert not messages[-1].tool_calls


async def test_search_results_are_listed_with_the_definition_site(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "where is load_config defined?")
    answer = messages[-1].content
    assert "Found 4 matches for `load_config` in 2 files" in answer
    assert "`src/demo/app.py:7`" in answer and "`tests/test_app.py:1`" in answer
    assert "defined in `src/demo/app.py` at line 7" in answer


async def test_a_listing_is_counted_and_shown(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    answer = (await run_turn(graph, "list the python files"))[-1].content
    assert "3 files matching `*.py`" in answer
    assert "`src/demo/util.py`" in answer and "README.md" not in answer
    assert "`.`" not in answer  # the root is named as the project, not as a dot


async def test_a_rename_reads_then_proposes_an_edit_computed_from_the_file(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "rename load_config to read_config in src/demo/app.py")
    calls = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert [c["name"] for c in calls] == ["read_file", "propose_edit"]
    edit = calls[1]["args"]
    original = (project / "src/demo/app.py").read_text().splitlines()
    patched = (
        original[: edit["start_line"] - 1]
        + edit["new_content"].split("\n")
        + original[edit["end_line"] :]
    )
    assert "\n".join(patched) == "\n".join(original).replace("load_config", "read_config")
    answer = messages[-1].content
    assert "```diff" in answer and "+def read_config(path: Path) -> dict:" in answer
    assert "2 lines added, 2 lines removed" in answer


async def test_a_docstring_request_inserts_one_under_the_named_function(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "add a docstring to greet in src/demo/app.py")
    edit = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls][-1]["args"]
    assert (edit["start_line"], edit["end_line"]) == (12, 12)
    assert edit["new_content"].split("\n")[1] == '        """Greet for `name`, returning `str`."""'


async def test_a_rename_of_missing_text_explains_instead_of_editing(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "rename fetch_data to get_data in src/demo/util.py")
    names = [c["name"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert names == ["read_file"]
    assert "`fetch_data` does not occur in `src/demo/util.py`" in messages[-1].content


async def test_a_project_question_lists_then_reads_the_readme(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "What is this project about?")
    names = [c["name"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert names == ["list_files", "read_file"]
    assert "A tiny demo project." in messages[-1].content


def test_the_same_call_is_never_repeated_in_a_turn(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project))
    history = [
        HumanMessage("What does README.md say?"),
        AIMessage(
            "", tool_calls=[{"name": "read_file", "args": {"path": "README.md"}, "id": "call_1"}]
        ),
        ToolMessage("README.md (lines 1-1 of 1)\n   1 | # Demo", tool_call_id="call_1"),
    ]
    reply = bound.invoke(history)
    assert reply.tool_calls == []
    assert "`README.md`" in reply.content


def test_tool_errors_are_reported_in_the_answer(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project))
    history = [
        HumanMessage("Read docs/missing.md"),
        AIMessage(
            "",
            tool_calls=[{"name": "read_file", "args": {"path": "docs/missing.md"}, "id": "call_1"}],
        ),
        ToolMessage(
            "Error: docs/missing.md does not exist.", tool_call_id="call_1", status="error"
        ),
    ]
    assert "docs/missing.md does not exist" in bound.invoke(history).content


def test_without_tools_bound_after_the_round_limit_it_still_answers_from_results(
    project: Path,
) -> None:
    history = [
        HumanMessage("where is slugify used?"),
        AIMessage(
            "", tool_calls=[{"name": "search_code", "args": {"query": "slugify"}, "id": "call_1"}]
        ),
        ToolMessage("src/demo/util.py:1: def slugify(text: str) -> str:", tool_call_id="call_1"),
    ]
    reply = ide_helper_model().invoke(history)
    assert reply.tool_calls == []
    assert "`src/demo/util.py:1`" in reply.content


async def test_a_bare_file_name_is_found_then_read(project: Path) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "What's in util.py?")
    calls = [
        (c["name"], c["args"]) for m in messages if isinstance(m, AIMessage) for c in m.tool_calls
    ]
    assert calls == [
        ("read_file", {"path": "util.py"}),
        ("list_files", {"directory": ".", "pattern": "util.py"}),
        ("read_file", {"path": "src/demo/util.py"}),
    ]
    assert "`slugify` (line 1)" in messages[-1].content


def test_a_path_shown_in_an_earlier_turn_completes_a_bare_name(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project))
    history = [
        HumanMessage("list the files"),
        AIMessage(
            "", tool_calls=[{"name": "list_files", "args": {"directory": "."}, "id": "call_1"}]
        ),
        ToolMessage("2 files in .:\nREADME.md\nsrc/demo/app.py", tool_call_id="call_1"),
        AIMessage("`.` holds 2 files."),
        HumanMessage("Now open app.py"),
    ]
    assert bound.invoke(history).tool_calls[0]["args"] == {"path": "src/demo/app.py"}


def test_a_review_outcome_is_reported(project: Path) -> None:
    history = [
        HumanMessage("rename slugify to make_slug in src/demo/util.py"),
        AIMessage(
            "",
            tool_calls=[
                {"name": "read_file", "args": {"path": "src/demo/util.py"}, "id": "call_1"}
            ],
        ),
        ToolMessage(
            "src/demo/util.py (lines 1-2 of 2)\n1 | def slugify(text: str) -> str:",
            tool_call_id="call_1",
        ),
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "propose_edit",
                    "args": {
                        "path": "src/demo/util.py",
                        "start_line": 1,
                        "end_line": 1,
                        "new_content": "x",
                    },
                    "id": "call_2",
                }
            ],
        ),
        ToolMessage(
            "The user rejected patch p1 for src/demo/util.py; the file was not changed.\n"
            "```diff\n-def slugify(text: str) -> str:\n+def make_slug(text: str) -> str:\n```",
            tool_call_id="call_2",
        ),
    ]
    reply = ide_helper_model().bind_tools(code_tools(project)).invoke(history)
    assert reply.tool_calls == []
    assert (
        "The user rejected patch p1" in reply.content
        and "1 line added, 1 line removed" in reply.content
    )


async def test_a_bare_file_name_is_found_then_read_and_only_the_read_is_told(
    project: Path,
) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, "what does util.py do?")
    calls = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert [(c["name"], c["args"].get("path") or c["args"].get("pattern")) for c in calls] == [
        ("read_file", "util.py"),
        ("list_files", "util.py"),
        ("read_file", "src/demo/util.py"),
    ]
    answer = messages[-1].content
    assert "src/demo/util.py" in answer and "`slugify`" in answer
    assert "did not work" not in answer and "holds" not in answer


@pytest.mark.parametrize(
    ("text", "symbol", "line"),
    [
        ("what does the main function do?", "main", 16),
        ("explain the Greeter class", "Greeter", 11),
        ("what does load_config do?", "load_config", 7),
    ],
)
async def test_a_symbol_asked_about_is_found_then_read_from_its_definition(
    project: Path, text: str, symbol: str, line: int
) -> None:
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, text)
    calls = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert [(c["name"], c["args"]) for c in calls] == [
        ("search_code", {"query": symbol}),
        ("read_file", {"path": "src/demo/app.py", "start_line": line, "end_line": line + 40}),
    ]
    answer = messages[-1].content
    assert answer.startswith("**`src/demo/app.py`**")  # the definition first
    assert f"`{symbol}` (line {line})" in answer
    read_part = answer.split("\n\n`")[0]
    defined = re.findall(r"`(\w+)` \(line \d+\)", read_part)
    assert defined == {"main": ["main"], "Greeter": ["Greeter", "greet"],
                       "load_config": ["load_config"]}[symbol]  # fmt: skip
    assert "appears on" not in answer  # the definition is not counted as a mention of itself
    uses = answer.split("\n\n")[-1]  # then where else it occurs, by file
    assert uses.startswith(f"`{symbol}` ") and "src/demo/app.py:" not in uses


async def test_a_symbols_docstring_leads_its_explanation(project: Path) -> None:
    (project / "src" / "demo" / "slow.py").write_text(
        'import time\n\n\ndef nap(seconds: float) -> None:\n    """Sleep a while."""\n'
        + "    time.sleep(seconds)\n" * 12,
        encoding="utf-8",
    )
    graph = build_loop(ide_helper_model(), code_tools(project))
    answer = (await run_turn(graph, "what does the nap function do?"))[-1].content
    assert answer.splitlines()[2] == "> Sleep a while."
    assert "`nap` is used nowhere else in the project." in answer


def test_the_first_lines_of_a_file_are_a_line_range(project: Path) -> None:
    assert first_calls(project, "read the first 5 lines of README.md") == [
        {"name": "read_file", "args": {"path": "README.md", "start_line": 1, "end_line": 5}}
    ]
