"""Which files belong to the project: the set ``list_files`` shows and ``search_code`` reads.

Skipped everywhere: version-control folders, virtualenvs (``.venv``, ``venv`` or any folder
holding a ``pyvenv.cfg``), ``node_modules``, ``__pycache__`` and tool caches, and whatever
``.gitignore`` ignores. In a git work tree git itself answers (``git ls-files --cached
--others --exclude-standard``: one fast call with git's exact ignore rules); elsewhere, or
when git is missing or refuses the folder, a walk applies the ``.gitignore`` files it meets
with ``pathspec``'s git-compatible matcher.
"""

from __future__ import annotations

import logging
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

logger = logging.getLogger(__name__)

SKIPPED_DIR_NAMES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
    }
)
"""Folder names never listed or searched, whatever ``.gitignore`` says."""

MAX_FILES = 200_000
"""Stop enumerating past this many files (a root pointed at a whole disk stays responsive)."""

GIT_TIMEOUT_S = 20.0


@dataclass(frozen=True, slots=True)
class FileListing:
    """Project files under one folder: root-relative POSIX paths, sorted.

    ``source`` says who applied the ignore rules (``"git"`` or ``"walk"``); ``capped`` is true
    when enumeration stopped at :data:`MAX_FILES`; ``unreadable`` counts folders the walk could
    not open (no permission, or a path past the system's ``PATH_MAX``), left out.
    """

    paths: list[str]
    source: str
    capped: bool = False
    unreadable: int = 0


def project_files(root: Path, directory: Path) -> FileListing:
    """Every project file under ``directory`` (a resolved folder inside the resolved ``root``)."""
    prefix = directory.relative_to(root).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    from_git = _git_files(directory)
    # A project root that git ignores as a whole (a scratch folder inside an ignored part of
    # a repository) lists nothing through git: walk it instead.
    if from_git is not None and (from_git or directory != root):
        paths = _without_skipped(from_git)
        capped = len(paths) > MAX_FILES
        return FileListing(sorted(prefix + p for p in paths[:MAX_FILES]), "git", capped)
    paths, capped, unreadable = _walk_files(directory)
    return FileListing(sorted(prefix + p for p in paths), "walk", capped, unreadable)


SAFE_GIT_CONFIG = (
    "core.fsmonitor=false",  # a repository's fsmonitor names a program git would run
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.untrackedCache=false",
    "diff.external=",
    "core.quotepath=off",
)
"""``-c`` overrides for every git call on a user's project: the project's own ``.git/config``
is untrusted and must not make git run a program it names."""


def git_command(*args: str) -> list[str]:
    """``git`` with :data:`SAFE_GIT_CONFIG` and no pager, then ``args``."""
    command = ["git", "--no-pager"]
    for setting in SAFE_GIT_CONFIG:
        command += ["-c", setting]
    return [*command, *args]


def git_environment() -> dict[str, str]:
    """A small environment for git: none of the caller's ``GIT_*`` variables (they can point
    git at other configs or programs), no system config, no prompts, no index writes."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_PAGER="cat",
    )
    return env


def _git_files(directory: Path) -> list[str] | None:
    """Paths relative to ``directory`` from git, or ``None`` when it is not a git work tree
    (or git is missing or refuses it)."""
    try:
        done = subprocess.run(
            git_command("ls-files", "-z", "--cached", "--others", "--exclude-standard"),
            cwd=directory,
            env=git_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        logger.info("git ls-files unavailable in %s: %s", directory, err)
        return None
    if done.returncode != 0:
        return None
    names = done.stdout.decode("utf-8", errors="surrogateescape").split("\0")
    # --cached and --others never overlap, but a conflicted file is listed once per stage.
    # Files deleted from the work tree but still in the index are listed too; readers skip
    # what they cannot open, and list_files checks existence on what it shows.
    return list(dict.fromkeys(name for name in names if name))


def _without_skipped(paths: list[str]) -> list[str]:
    """Drop paths inside skipped folders or inside a virtualenv git does not ignore."""
    venvs = {
        p[: -len("pyvenv.cfg")] for p in paths if p.endswith("/pyvenv.cfg")
    }  # "env/" for "env/pyvenv.cfg"
    kept = []
    for path in paths:
        parts = path.split("/")
        if any(part in SKIPPED_DIR_NAMES for part in parts[:-1]):
            continue
        if venvs and any(path.startswith(v) for v in venvs):
            continue
        kept.append(path)
    return kept


def _walk_files(directory: Path) -> tuple[list[str], bool, int]:
    """Walk ``directory`` applying skipped names, virtualenv detection and ``.gitignore``:
    (files, whether the walk stopped at :data:`MAX_FILES`, folders it could not open)."""
    found: list[str] = []
    unopened: list[OSError] = []
    # (folder relative to directory with trailing "/", its spec), outermost first.
    specs: list[tuple[str, GitIgnoreSpec]] = []
    for current, dirnames, filenames in os.walk(directory, onerror=unopened.append):
        rel_dir = Path(current).relative_to(directory).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        specs = [(base, spec) for base, spec in specs if rel_dir.startswith(base)]
        if ".gitignore" in filenames:
            spec = _read_gitignore(Path(current) / ".gitignore")
            if spec is not None:
                specs.append((rel_dir, spec))
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in SKIPPED_DIR_NAMES
            and not os.path.isfile(os.path.join(current, d, "pyvenv.cfg"))
            and not _ignored(specs, rel_dir + d + "/")
        )
        for name in sorted(filenames):
            rel = rel_dir + name
            if not _ignored(specs, rel):
                found.append(rel)
                if len(found) >= MAX_FILES:
                    return found, True, len(unopened)
    return found, False, len(unopened)


def _read_gitignore(path: Path) -> GitIgnoreSpec | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    # imported only here: a project in git, or without a .gitignore, never needs the matcher
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines)


def _ignored(specs: list[tuple[str, GitIgnoreSpec]], rel: str) -> bool:
    """Git's rule: the deepest ``.gitignore`` with a matching pattern decides."""
    for base, spec in reversed(specs):
        result = spec.check_file(rel[len(base) :])
        if result.include is not None:
            return bool(result.include)
    return False
