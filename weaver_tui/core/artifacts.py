"""Saving a reply's artifacts (``meta["artifacts"]``: code, a spec ...) as files in the project.

A profile lists what a reply produced as ``{"name", "language", "text"}`` (and optionally a
``folder`` under the project root); the user saves them with one key after a confirmation
that names every file and says which ones it replaces. Names come from the model, so each is
checked: a plain file name, a folder that stays inside the project root on every path
component (no ``..``, no link leading out), and a size limit. Each file is written whole
(a temporary file renamed over the target), so a crash never leaves half a file.

The check is made when the question is asked, the write when the user answers, and the project
may change in between (a build, a generated script, another program): the write itself goes
through :func:`agents.confined_files.replace_confined`, relative to directory handles with no
link followed on any component, so a folder or file swapped for a link after the check makes
the save fail with one sentence and nothing outside the root is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.confined_files import replace_confined
from agents.errors import ToolError
from agents.project_paths import resolve_project_path

MAX_ARTIFACT_BYTES = 1_000_000
"""A larger artifact is not saved (no reply of this app writes one)."""
_NAME = re.compile(r"^[\w][\w.-]{0,120}$")


class ArtifactError(Exception):
    """An artifact that cannot be saved, with the sentence that says why."""


@dataclass(frozen=True, slots=True)
class PlannedFile:
    """One artifact and where it goes."""

    relative: str
    target: Path
    text: str
    replaces: bool
    root: Path | None = None
    """The resolved project root the target is under (the save writes relative to it)."""


def artifacts_of(meta: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [a for a in meta.get("artifacts") or () if isinstance(a, Mapping)]


def latest_with_artifacts(records: Iterable[Any]) -> Any | None:
    """The last of ``records`` (a path, oldest first) whose meta lists artifacts."""
    found = None
    for record in records:
        if getattr(record, "role", "") == "assistant" and artifacts_of(record.meta):
            found = record
    return found


def plan_saves(root: Path, artifacts: Sequence[Mapping[str, Any]]) -> list[PlannedFile]:
    """Where each artifact goes under ``root``; :class:`ArtifactError` names the first that
    cannot be saved."""
    planned: list[PlannedFile] = []
    for artifact in artifacts:
        name = str(artifact.get("name") or "")
        if not _NAME.match(name) or name in (".", ".."):
            raise ArtifactError(f"The artifact name {name[:60]!r} is not a plain file name.")
        text = str(artifact.get("text") or "")
        if len(text.encode("utf-8")) > MAX_ARTIFACT_BYTES:
            raise ArtifactError(f"{name} is larger than {MAX_ARTIFACT_BYTES:,} bytes; not saved.")
        folder = str(artifact.get("folder") or "").strip("/")
        relative = f"{folder}/{name}" if folder else name
        try:
            target = resolve_project_path(root, relative)
        except ToolError as exc:
            raise ArtifactError(str(exc)) from exc
        if target.exists() and not target.is_file():
            raise ArtifactError(f"{relative} exists and is not a file; nothing was saved.")
        real_root = Path(os.path.realpath(root))
        planned.append(PlannedFile(relative, target, text, target.exists(), real_root))
    return planned


def question_for(root: Path, planned: Sequence[PlannedFile]) -> str:
    lines = [f"Save {len(planned)} file(s) under {root}?"]
    lines += [f"  {p.relative}" + ("  (replaces the file there)" if p.replaces else "") for p in planned]  # fmt: skip
    return "\n".join(lines)


def save(planned: Sequence[PlannedFile]) -> None:
    """Write every planned file whole, confined to its root (see the module);
    :class:`ArtifactError` with the sentence when the project changed so that one may not be."""
    for item in planned:
        root = item.root or item.target.parent
        text = item.text if item.text.endswith("\n") else item.text + "\n"
        try:
            replace_confined(root, item.target.relative_to(root), text.encode("utf-8"))
        except (ToolError, ValueError) as exc:
            raise ArtifactError(f"{exc} Nothing more was saved.") from None
