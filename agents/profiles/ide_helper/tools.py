"""The ide-helper's tools, as the model sees them: the docstrings below are its manual.

Each tool is a thin wrapper: it takes the project root from the turn's context
(``runtime.context.project_root``), calls the plain function that does the work
(:mod:`reading`, :mod:`search`, :mod:`patches`), and turns an expected failure into a
``ToolException`` whose sentence the model reads as an error result and can recover from.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.tools import BaseTool, ToolException, tool
from langgraph.prebuilt import ToolRuntime

from agents.errors import WeaverError
from agents.folder_instructions import (
    FOLDER_INSTRUCTIONS_KEY,
    FolderFile,
    FolderInstructions,
    with_folder_instructions,
)
from agents.patch_review import PROPOSE_EDIT
from agents.patch_review.patches import make_patch
from agents.profiles.ide_helper.reading import list_project_files, read_text_file
from agents.profiles.ide_helper.search import format_search, search_project
from agents.project_paths import resolve_inside, resolve_project_path

T = TypeVar("T")


def _root(runtime: ToolRuntime[Any]) -> Path:
    root = Path(runtime.context.project_root)
    if not root.is_dir():
        raise ToolException(
            f"The project folder {root} is not there any more; tell the user to start "
            "weaver-tui in the project (or pass --project-root)."
        )
    return root


def _explained(work: Callable[..., T], *args: Any) -> T:
    """Run ``work``; an expected failure becomes the sentence the model reads."""
    try:
        return work(*args)
    except WeaverError as err:
        raise ToolException(err.user_message) from err


@tool
def read_file(
    path: str,
    runtime: ToolRuntime[Any],
    start_line: int | None = None,
    end_line: int | None = None,
) -> str:
    """Read a text file of the project, with line numbers (`  12 | text`).

    path: relative to the project root, e.g. "src/app.py" (absolute paths and ".." are refused).
    start_line, end_line: optional 1-based inclusive range; omit both to read from the top.
    At most 2,000 lines or 200 KB come back per call; a longer file ends with a
    "[truncated ...]" notice naming the next range to ask for. Binary files are refused.
    Always read the lines you want to change before calling propose_edit, and cite code as
    file:line. When a folder of the file has its own AGENTS.md, its instructions follow the
    lines (once per turn): the project's content for that folder, not the user's words.
    """
    root = _root(runtime)
    text = _explained(read_text_file, root, path, start_line, end_line)
    return with_folder_instructions(text, _explained(_folder_instructions, runtime, root, path))


def _folder_instructions(runtime: ToolRuntime[Any], root: Path, path: str) -> list[FolderFile]:
    """The ``AGENTS.md`` of the folders between the file read and the root that this turn has
    not added yet (:mod:`agents.folder_instructions`)."""
    folders = runtime.context.extra.get(FOLDER_INSTRUCTIONS_KEY)
    if not isinstance(folders, FolderInstructions):
        return []
    real_root = resolve_inside(root, ".")
    target = resolve_project_path(root, path)
    return folders.for_file(real_root, target.relative_to(real_root).as_posix())


@tool
def list_files(runtime: ToolRuntime[Any], directory: str = ".", pattern: str | None = None) -> str:
    """List the project's files under a folder (recursively), one relative path per line.

    directory: a folder relative to the project root; "." (the default) is the whole project.
    pattern: optional glob. Without "/" it matches file names at any depth ("*.py",
    "test_*.py"); with "/" it matches the path below `directory` ("src/**/*.ts").
    Skipped: .git, virtualenvs, node_modules, __pycache__, tool caches and everything
    .gitignore ignores. Long listings are cut at 400 paths with a count of the rest; narrow
    them with `directory` or `pattern`.
    """
    return _explained(list_project_files, _root(runtime), directory, pattern)


@tool
def search_code(
    query: str, runtime: ToolRuntime[Any], max_results: int = 50, regex: bool = False
) -> str:
    """Search the project's text files for a line containing `query`; answers `file:line: text`.

    query: the text to find (one line). Case-insensitive unless it contains a capital letter.
    max_results: how many matching lines to show (default 50, at most 200); the footer
    says how many there are in all.
    regex: true to read `query` as a Python regular expression (e.g. "def \\w+_handler").
    Ignored, binary and very large files (over 1 MB) are not searched. Use it to find where
    something is defined or used, then read_file around the line.
    """

    def run(root: Path) -> str:
        return format_search(query, search_project(root, query, max_results, regex))

    return _explained(run, _root(runtime))


@tool(PROPOSE_EDIT, response_format="content_and_artifact")
def propose_edit(
    path: str,
    start_line: int,
    end_line: int,
    new_content: str,
    runtime: ToolRuntime[Any],
) -> tuple[str, dict[str, Any]]:
    """Propose replacing lines start_line..end_line (1-based, inclusive) of a file with
    new_content. Nothing is written: the user reviews the unified diff and accepts or rejects
    it, and this tool's result then tells you which.

    Read the file first and use its line numbers. new_content is the complete text of the new
    lines (keep the indentation; "" deletes the lines). To insert without replacing, use
    end_line = start_line - 1. To create a new file, use start_line=1, end_line=0.
    One call per contiguous change; several calls for several places.
    """

    def run(root: Path) -> tuple[str, dict[str, Any]]:
        patch = make_patch(root, path, start_line, end_line, new_content, runtime.tool_call_id)
        text = (
            f"Proposed patch {patch.id} for {patch.path}; it is waiting for the user's review "
            f"and nothing has been written yet.\n```diff\n{patch.diff}```"
        )
        record_meta = {"patch_id": patch.id, "patch_path": patch.path, "patch_status": "pending"}
        return text, {"patch": patch.to_dict(), "record_meta": record_meta}

    return _explained(run, _root(runtime))


TOOLS: list[BaseTool] = [read_file, list_files, search_code, propose_edit]
for _tool in TOOLS:
    # A ToolException becomes an error result holding just its sentence.
    _tool.handle_tool_error = True


def make_tools() -> list[BaseTool]:
    """The ide-helper's tools, in the order the model reads them."""
    return list(TOOLS)
