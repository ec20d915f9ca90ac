"""``ask --edit``, ``--parent`` and ``/regenerate`` go back to a message; the files go with
them only when asked (``--restore-files``), as the app's "conversation and files" choice.

With patches applied after that message on the active branch: ``--restore-files`` reverts
exactly those, all or nothing (:mod:`agents.patch_review.restore_point`), and a conflict (a
file changed since) refuses the command before anything is sent or written; without it the
files stay as they are and one sentence on stderr says which patches stay and how to take
them back too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from weaver_tui.core.cli.errors import EXIT_FAILURE, CliError


def go_back(store: Any, args: argparse.Namespace, conversation_id: str, point: str | None) -> None:
    """Take the files back to ``point`` too when ``args.restore_files`` (see the module)."""
    from agents.patch_review.restore_point import patches_after, restore_files

    leaf = store.active_leaf(conversation_id)
    patches = [] if leaf is None else patches_after(store, leaf.id, point)
    if not patches:
        return
    names = ", ".join(p.summary for p in patches)
    if not getattr(args, "restore_files", False):
        print(
            f"The files keep the patches applied after this message ({names}); pass "
            "--restore-files to revert them too.",
            file=sys.stderr,
        )
        return
    root = store.get_conversation(conversation_id).meta.get("project_root")
    if not root:
        raise CliError(
            f"conversation {conversation_id} has no project folder to restore", EXIT_FAILURE
        )
    outcomes = restore_files(Path(str(root)), store, leaf.id, point)
    failed = next((o for o in outcomes if not o.done), None)
    if failed is not None:
        raise CliError(f"{failed.message} Nothing was sent.", EXIT_FAILURE)
    for outcome in outcomes:
        print(outcome.message, file=sys.stderr)


def edit_or_fork(
    store: Any, args: argparse.Namespace, conversation_id: str | None, parent_id: str | None
) -> None:
    """:func:`go_back` for ``ask --edit`` or ``--parent`` (the new message goes below
    ``parent_id``); nothing for a plain ``ask``."""
    if conversation_id and (args.edit or args.parent):
        go_back(store, args, conversation_id, parent_id)
