"""Rules for the ide-helper's tools: ``read_file``, ``list_files``, ``search_code``, ``propose_edit``.

Each round the plan is recomputed from the request and the results so far: name a file and
it is read; ask to list and the folder is listed; ask where something is and the code is
searched; ask for a change and the file is read first, then an edit computed from what was
read is proposed. Calls already made this turn are never repeated, so when nothing new is
left to call the model answers from the results.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from agents.offline.conversation import Conversation
from agents.offline.reply import PlannedCall, Reply
from agents.offline.text import human_list
from agents.profiles.ide_helper.offline.answers import (
    answer,
    definition_of,
    folder_name,
    search_hits,
)
from agents.profiles.ide_helper.offline.edits import (
    docstring_edit,
    numbered_lines,
    replacement_edit,
)
from agents.profiles.ide_helper.offline.intent import CodeIntent, parse_code_intent
from agents.profiles.ide_helper.reading import IS_A_FILE

READ, LIST, SEARCH, EDIT = "read_file", "list_files", "search_code", "propose_edit"
FAMILY = (READ, LIST, SEARCH, EDIT)


def decide(conv: Conversation) -> Reply | None:
    """Call the next code tool the request needs, or answer from this turn's results."""
    own_results = conv.results_of(*FAMILY)
    if not any(conv.has_tool(name) for name in FAMILY) and not own_results:
        return None
    intent = parse_code_intent(conv.user_text)
    pending: list[PlannedCall] = []
    if conv.may_call_tools:
        pending = [
            call
            for call in _plan(conv, intent)
            if conv.has_tool(call.name) and not conv.already_called(call.name, call.args)
        ]
    if pending:
        return Reply(text=_preface(pending), calls=tuple(pending))
    if own_results:
        return Reply(text=answer(conv, intent))
    return None


def _plan(conv: Conversation, intent: CodeIntent) -> list[PlannedCall]:
    if intent.wants_edit:
        return _plan_edit(conv, intent)
    if intent.files:
        start, end = intent.line_range or (None, None)
        calls = []
        if intent.lists_explicitly:  # "list the files here and read README.md": both
            directory = intent.directories[0] if intent.directories else "."
            calls.append(_call(conv, LIST, directory=directory, pattern=intent.pattern))
        for named in intent.files[:4]:
            path = _known_path(conv, named)
            calls.append(_call(conv, READ, path=path, start_line=start, end_line=end))
            search, found = _locate(conv, path)
            calls += search
            if found not in (None, path):
                calls.append(_call(conv, READ, path=found, start_line=start, end_line=end))
        return calls
    if intent.symbol and not intent.wants_search:
        return _plan_explain(conv, intent.symbol)
    if intent.wants_search and not (intent.wants_list and intent.pattern):
        return [_call(conv, SEARCH, query=intent.search_term)]
    if intent.wants_list or intent.directories:
        directory = intent.directories[0] if intent.directories else "."
        calls = [_call(conv, LIST, directory=directory, pattern=intent.pattern)]
        if _listed_a_file(conv, directory):  # "what is in notes.xyz?": it is a file, read it
            calls.append(_call(conv, READ, path=directory))
        return calls
    if intent.wants_overview:
        calls = [_call(conv, LIST, directory=".", pattern=None)]
        readme = _readme_in_listing(conv)
        if readme:
            calls.append(_call(conv, READ, path=readme))
        return calls
    return []


EXPLAIN_LINES = 40
"""Lines read from a definition's start when the user asks what it does."""


def _plan_explain(conv: Conversation, symbol: str) -> list[PlannedCall]:
    """Find where ``symbol`` is defined, then read it from there."""
    calls = [_call(conv, SEARCH, query=symbol)]
    site = _definition_site(conv, symbol)
    if site is not None:
        path, line = site
        calls.append(_call(conv, READ, path=path, start_line=line, end_line=line + EXPLAIN_LINES))
    return calls


def _definition_site(conv: Conversation, symbol: str) -> tuple[str, int] | None:
    for result in conv.results_of(SEARCH):
        for path, line, text in search_hits(result.content):
            if definition_of(symbol, text):
                return path, line
    return None


def _plan_edit(conv: Conversation, intent: CodeIntent) -> list[PlannedCall]:
    path = intent.files[0] if intent.files else _first_hit_path(conv)
    if path is None:
        term = intent.rename[0] if intent.rename else intent.docstring_target
        return [_call(conv, SEARCH, query=term)] if term else []
    search, found = _locate(conv, path)
    if found is None:
        return [_call(conv, READ, path=path), *search]
    path = found
    calls = [_call(conv, READ, path=path)]
    lines = _read_lines(conv, path)
    proposed = any(_same_path(str(r.args.get("path", "")), path) for r in conv.results_of(EDIT))
    if lines is not None and conv.has_tool(EDIT) and not proposed:
        if intent.rename:
            edit = replacement_edit(lines, *intent.rename)
        else:
            edit = docstring_edit(lines, intent.docstring_target)
        if edit is not None:
            calls.append(
                _call(
                    conv,
                    EDIT,
                    path=path,
                    start_line=edit.start_line,
                    end_line=edit.end_line,
                    new_content=edit.new_content,
                )
            )
    return calls


def _call(conv: Conversation, name: str, **args: Any) -> PlannedCall:
    """A call with only the arguments the bound schema knows (and no empty optionals)."""
    spec = conv.tools.get(name)
    known = set(spec.properties) if spec is not None and spec.properties else set(args)
    kept = {key: value for key, value in args.items() if value is not None and key in known}
    return PlannedCall(name=name, args=kept)


def _read_lines(conv: Conversation, path: str) -> dict[int, str] | None:
    for result in reversed(conv.results_of(READ)):
        if not result.is_error and _same_path(str(result.args.get("path", "")), path):
            return numbered_lines(result.content)
    return None


def _known_path(conv: Conversation, name: str) -> str:
    """A bare file name completed from a path that tool output already showed, if any."""
    if "/" in name:
        return name
    texts = [r.content for r in conv.results if not r.is_error] + list(
        reversed(conv.earlier_tool_output)
    )
    pattern = re.compile(rf"(?<![\w./-])((?:[\w.-]+/)+{re.escape(name)})(?![\w/-])")
    for text in texts:
        match = pattern.search(text)
        if match:
            return match.group(1).removeprefix("./")
    return name


def _read_failed(conv: Conversation, path: str) -> bool:
    return any(
        r.is_error and _same_path(str(r.args.get("path", "")), path) for r in conv.results_of(READ)
    )


def _locate(conv: Conversation, path: str) -> tuple[list[PlannedCall], str | None]:
    """Where ``path`` is: itself, unless it is a bare file name whose read failed (not at the
    root); then the listing that looks for it and the path it found (``None`` until found)."""
    if "/" in path or not _read_failed(conv, path):
        return [], path
    found = _known_path(conv, path)
    return [_call(conv, LIST, directory=".", pattern=path)], (None if found == path else found)


def _listed_a_file(conv: Conversation, path: str) -> bool:
    return any(
        r.is_error and IS_A_FILE in r.content and _same_path(str(r.args.get("directory", "")), path)
        for r in conv.results_of(LIST)
    )


def _same_path(a: str, b: str) -> bool:
    return a.removeprefix("./").rstrip("/") == b.removeprefix("./").rstrip("/")


def _first_hit_path(conv: Conversation) -> str | None:
    for result in conv.results_of(SEARCH):
        hits = search_hits(result.content)
        if hits:
            return hits[0][0]
    return None


def _readme_in_listing(conv: Conversation) -> str | None:
    for result in conv.results_of(LIST):
        if result.is_error:
            continue
        for line in result.content.splitlines():
            entry = line.strip().lstrip("-* ").strip()
            if re.fullmatch(r"(?:\./)?readme(?:\.\w+)?", entry, re.IGNORECASE):
                return entry.removeprefix("./")
    return None


def _preface(calls: list[PlannedCall]) -> str:
    """One sentence saying what is about to happen, the way a model narrates its tool use."""
    names = {call.name for call in calls}
    if EDIT in names:
        edit = next(c for c in calls if c.name == EDIT)
        return f"I'll propose a change to `{edit.args.get('path')}` for your review."
    if names == {READ}:
        paths = [f"`{c.args.get('path')}`" for c in calls]
        return f"Let me read {human_list(paths)}."
    if names == {SEARCH}:
        return f"Searching the code for `{calls[0].args.get('query')}`."
    if names == {LIST}:
        return f"Let me {_listing_phrase(calls[0].args)}."
    if names == {LIST, READ} and calls[0].name == LIST:
        paths = [f"`{c.args.get('path')}`" for c in calls if c.name == READ]
        return f"Let me {_listing_phrase(calls[0].args)}, then read {human_list(paths)}."
    return "Let me look at the project."


def _listing_phrase(args: Mapping[str, Any]) -> str:
    pattern = f" matching `{args['pattern']}`" if args.get("pattern") else ""
    return f"list the files in {folder_name(str(args.get('directory') or '.'))}{pattern}"
