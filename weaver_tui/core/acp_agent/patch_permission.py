"""The ide-helper's patch review as an ACP permission request, and an applied patch as a diff.

A turn that pauses on a proposed patch asks the client for permission on that tool call
(accept or reject, once); the patch's file travels as a ``diff`` (old and new text, absolute
path) so the editor shows the change before it is made. After an accepted patch is applied,
the tool call is updated with the same diff, completed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from acp import tool_diff_content, update_tool_call
from acp.helpers import SessionUpdate
from acp.schema import AllowedOutcome, PermissionOption, RequestPermissionResponse, ToolCallUpdate

from agents.confined_files import read_confined
from agents.errors import ToolError
from agents.patch_review.file_edit import undo_text
from agents.patch_review.patches import MAX_PATCH_FILE_BYTES, Patch
from agents.project_paths import resolve_inside, resolve_project_path
from storage.printable import printable

ACCEPT = "accept"
REJECT = "reject"

PERMISSION_OPTIONS = [
    PermissionOption(option_id=ACCEPT, name="Apply the patch", kind="allow_once"),
    PermissionOption(option_id=REJECT, name="Reject the patch", kind="reject_once"),
]


def patch_file(project_root: Path, patch: Patch) -> Path:
    """The absolute path of the file the patch changes (ACP paths are absolute): in the folder
    the patch was made in, where accepting it writes, whatever folder the session works in."""
    return (patch.folder(project_root) / patch.path).resolve()


def current_text(project_root: Path, patch: Patch) -> str | None:
    """The text of the file the patch changes, now (``None`` for a file the patch creates, or
    one that cannot be shown).

    The path is the model's, and the project may have changed since the patch was proposed, so
    the file is read as a patch is applied: inside the root, through
    :mod:`agents.confined_files` (no link followed on any part of the path, a pipe, socket or
    device refused without blocking, a hard-linked file refused, at most
    :data:`MAX_PATCH_FILE_BYTES`): a file outside the project never reaches the editor."""
    try:
        real_root = resolve_inside(project_root, ".")
        target = resolve_project_path(project_root, patch.path)
        data = read_confined(real_root, target.relative_to(real_root), MAX_PATCH_FILE_BYTES)
    except (OSError, ToolError, ValueError):
        return None
    if len(data) > MAX_PATCH_FILE_BYTES:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def base_text(project_root: Path, patch: Patch) -> str | None:
    """The text the patch was made from, byte for byte (``None``: it creates the file).

    The editor's diff must be the change an accept makes: from this text (an accept applies
    only while the file still holds it) to the patch's new text. The file as it is now may
    differ (edited since: the accept then refuses) and a text read with newline translation
    differs in every CRLF line, so the text is rebuilt from the patch's recorded change; a
    patch stored before changes were recorded falls back to the file now."""
    if patch.edit is not None:
        return undo_text(patch.edit, patch.new_content)
    return current_text(project_root, patch)


def review_request(project_root: Path, patch: Patch, call_id: str) -> ToolCallUpdate:
    """The tool call a permission request is about: the proposed edit, shown as a diff."""
    path = patch_file(project_root, patch)
    return ToolCallUpdate(
        tool_call_id=call_id,
        title=printable(f"Apply {patch.summary}?"),
        kind="edit",
        status="pending",
        content=[tool_diff_content(str(path), patch.new_content, base_text(project_root, patch))],
        raw_input=patch.to_dict(),
    )


def decision_of(response: RequestPermissionResponse) -> Literal["accept", "reject"] | None:
    """The user's decision, or ``None`` when the client cancelled the request."""
    outcome: Any = response.outcome
    if not isinstance(outcome, AllowedOutcome):
        return None
    return "accept" if outcome.option_id == ACCEPT else "reject"


def applied_update(call_id: str, path: Path, old_text: str | None, patch: Patch) -> SessionUpdate:
    """The edit as made: the tool call completed, with the file's diff."""
    return update_tool_call(
        call_id,
        status="completed",
        content=[tool_diff_content(str(path), patch.new_content, old_text)],
    )
