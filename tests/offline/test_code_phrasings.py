"""The offline ide-helper reads common phrasings of a request: a table of what users type, and
which tool each one calls with which arguments (behaviour, not wording)."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from tests.offline.conftest import build_loop, run_turn
from tests.offline.test_code_tools import first_calls
from tests.offline.tools import code_tools, ide_helper_model


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("search for def main", "def main"),
        ("find class Greeter", "class Greeter"),
        ("where is slugify used?", "slugify"),
        ("grep for load_config", "load_config"),
        ('look for "Hello" in the code', "Hello"),
        ("search the code for import json", "import json"),
        ("find all TODOs", "TODO"),
        ("which files import textual?", "textual"),
        ("which python files use slugify?", "slugify"),
    ],
)
def test_search_phrasings_search_for_what_was_named(project: Path, text: str, query: str):
    assert first_calls(project, text) == [{"name": "search_code", "args": {"query": query}}]


@pytest.mark.parametrize(
    "text",
    [
        "rename function greet to welcome in src/demo/app.py",
        "rename the method greet to welcome in src/demo/app.py",
        "in src/demo/app.py rename greet to welcome",
        "Rename `greet` to `welcome` in `src/demo/app.py`",
        "change greet into welcome in src/demo/app.py",
        "rename greet to welcome in app.py",  # a bare name: found, then read and changed
    ],
)
async def test_rename_phrasings_propose_the_rename_in_the_named_file(project: Path, text: str):
    graph = build_loop(ide_helper_model(), code_tools(project))
    messages = await run_turn(graph, text)
    calls = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    edits = [c for c in calls if c["name"] == "propose_edit"]
    assert len(edits) == 1, calls
    args = edits[0]["args"]
    assert args["path"] == "src/demo/app.py"
    assert "def welcome(self, name: str)" in args["new_content"]
    assert "greet" not in args["new_content"].replace("greet users", "")


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("where is the function load_config used?", "load_config"),
        ("find the class that loads config", None),
    ],
)
def test_english_after_a_kind_word_is_not_taken_for_code(project: Path, text: str, query):
    calls = first_calls(project, text)
    queries = [c["args"].get("query") for c in calls if c["name"] == "search_code"]
    assert query is None or queries == [query]
    assert "class that" not in queries and "function load_config" not in queries


@pytest.mark.parametrize(
    ("text", "path"),
    [("show me the pyproject", "pyproject.toml"), ("open README", "README.md")],
)
def test_files_named_without_their_extension_are_read(project: Path, text: str, path: str):
    assert first_calls(project, text)[0] == {"name": "read_file", "args": {"path": path}}


async def test_a_folder_in_a_files_path_is_no_term_to_look_for(project: Path):
    graph = build_loop(ide_helper_model(), code_tools(project))
    answer = (await run_turn(graph, "explain lines 1-3 of src/demo/app.py"))[-1].content
    assert "`demo`" not in answer and "`src`" not in answer
