"""One writer per record: no module of the app (``weaver_tui/``) writes a message record.

The runtime writes (``agents/``: a turn, the user's message through ``AgentRuntime.send``, the
tree edits of :mod:`agents.runtime.tree_edits`); a front end applies the events that carry what
was written. This reads every module under ``weaver_tui/`` and fails on any call of a store
method that writes records, or of a function that does (by name, through an import, or through
``getattr``), outside a short allowlist whose entries each say why. Every method of the store's
protocol is classified here, so a new writing method cannot slip past unclassified.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from storage.store import ConversationStore

ROOT = Path(__file__).resolve().parents[1]

RECORD_WRITES = frozenset(
    {
        "add_message",
        "update_message",
        "delete_branch",
        "mark_interrupted_replies",
        "import_jsonl",
        "accept_patch",
        "copy_accepted_patches",
    }
)
"""Store methods that write message records (or what hangs on them)."""

CONVERSATION_WRITES = frozenset(
    {
        "create_conversation",
        "rename_conversation",
        "update_conversation_meta",
        "delete_conversation",
        "set_active_leaf",
    }
)
"""Store methods that write a conversation's own settings (its title, its meta, where the user
is): the user's choices, which the app may store; no message record changes."""

READS = frozenset(
    {
        "get_conversation",
        "list_conversations",
        "count_conversations",
        "recent_prompts",
        "get_message",
        "list_messages",
        "message_rows",
        "write_mark",
        "rows_written_after",
        "children",
        "siblings",
        "path_to_root",
        "path_tail",
        "context_window",
        "latest_leaf",
        "active_leaf",
        "search",
        "export_markdown",
        "export_jsonl",
        "accepted_patches",
        "close",
    }
)

WRITING_FUNCTIONS = frozenset({"store_user_message", "branch_to_conversation", "summarise_older"})
"""Functions outside the store that write records; the runtime calls them, the app does not."""

ALLOWED = {
    ("services.py", "mark_interrupted_replies"): (
        "recovery when the store opens, before any turn: replies a killed process left "
        "streaming are marked interrupted (their text is kept)"
    ),
    ("store_verbs.py", "import_jsonl"): (
        "the import verb hands a file to the store's importer, which keeps content through an "
        "allowlist of fields; no turn, no front end"
    ),
}
"""(file name, what it calls) -> why. Keyed by file name so a module keeps its entry when its
package moves."""


def _protocol_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(ConversationStore)
        if not name.startswith("_") and callable(member)
    }


def _writes_in(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) of every record write the module's code names."""
    forbidden = RECORD_WRITES | WRITING_FUNCTIONS
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else None
            )
            if name == "getattr" and len(node.args) >= 2:
                target = node.args[1]
                if isinstance(target, ast.Constant) and isinstance(target.value, str):
                    name = target.value
            if name in forbidden:
                found.append((node.lineno, name))
        elif isinstance(node, ast.ImportFrom):
            found.extend(
                (node.lineno, alias.name) for alias in node.names if alias.name in forbidden
            )
    return sorted(found)


def test_every_method_of_the_store_is_classified() -> None:
    classified = RECORD_WRITES | CONVERSATION_WRITES | READS
    assert not RECORD_WRITES & CONVERSATION_WRITES
    assert not (RECORD_WRITES | CONVERSATION_WRITES) & READS
    unclassified = _protocol_methods() - classified
    assert not unclassified, (
        f"classify the store's new methods {sorted(unclassified)} in {Path(__file__).name}: "
        "does each write message records, a conversation's settings, or read?"
    )


def test_no_module_of_the_app_writes_a_record() -> None:
    offenders: list[str] = []
    used: set[tuple[str, str]] = set()
    for path in sorted((ROOT / "weaver_tui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in _writes_in(tree):
            if (path.name, name) in ALLOWED:
                used.add((path.name, name))
                continue
            offenders.append(f"{path.relative_to(ROOT)}:{line} {name}")
    assert not offenders, (
        "the app writes records here; make it a runtime call that returns or yields the "
        f"event carrying what it wrote: {offenders}"
    )
    assert used == set(ALLOWED), f"allowlist entries that match nothing: {set(ALLOWED) - used}"


def test_the_check_sees_each_way_of_naming_a_write() -> None:
    code = (
        "from agents.runtime.user_message import store_user_message\n"
        "store.add_message(c, 'user', 't', None)\n"
        "getattr(store, 'update_message')(m, content='x')\n"
        "branch_to_conversation(store, m)\n"
        "store.update_conversation_meta(c, title='kept')\n"
        "store.get_message(m)\n"
    )
    assert [name for _, name in _writes_in(ast.parse(code))] == [
        "store_user_message",
        "add_message",
        "update_message",
        "branch_to_conversation",
    ]
