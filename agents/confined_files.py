"""Open, read and atomically replace files inside a project root, and nowhere else.

Checking a resolved path and then opening it by name leaves a gap: a folder swapped for a
symbolic link in between is followed out of the root. Here every step is taken relative to a
directory handle: the root is opened once, each folder below it is opened from its parent's
handle with ``O_NOFOLLOW | O_DIRECTORY`` (a link put in place of a folder fails to open), and
the file is opened the same way with ``O_NONBLOCK`` (a named pipe opens at once and is then
refused). The opened file is checked with ``fstat``: a regular file, on the root's device, with
no other hard link (a hard link can make a file from outside look like one inside). Writes go
to a temporary file created in the same folder handle and renamed over the target
(``os.replace`` with both directory handles), so readers see the old file or the new one.

Callers pass a path already resolved by :mod:`agents.project_paths` (symbolic links inside the
root are resolved there; here none is followed), relative to the resolved root.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

from agents.project_paths import VCS_FOLDERS, PathRefused

_DIR_FLAGS = (
    os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
)
_FILE_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)  # a named pipe opens at once instead of waiting for a writer
    | getattr(os, "O_CLOEXEC", 0)
)
_CHANGED = "it changed while it was being opened (a folder replaced by a link?); try again"


def _refused(shown: str, why: str) -> PathRefused:
    quoted = shown if len(shown) <= 80 else f"{shown[:60]}...{shown[-12:]}"  # a sentence, not 4 KB
    return PathRefused(f"'{quoted}' cannot be used: {why}.")


def open_root(root: Path) -> int:
    """A directory handle on the project root (the user's own choice: links are followed)."""
    return os.open(os.path.realpath(root), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def open_folder(
    root_fd: int,
    parts: Sequence[str],
    shown: str,
    *,
    create: bool = False,
    created: list[str] | None = None,
) -> int:
    """A handle on the folder ``parts`` below the root, walked one folder at a time with no
    link followed; ``create`` makes missing folders (each one made is added to ``created``,
    as a path below the root). Raises :class:`PathRefused`."""
    current = os.dup(root_fd)
    try:
        for depth, name in enumerate(parts):
            if name.casefold() in VCS_FOLDERS:
                raise _refused(shown, "it is inside version-control data")
            try:
                following = os.open(name, _DIR_FLAGS, dir_fd=current)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=current)
                except FileExistsError:
                    pass
                else:
                    if created is not None:
                        created.append("/".join(parts[: depth + 1]))
                following = os.open(name, _DIR_FLAGS, dir_fd=current)
            os.close(current)
            current = following
    except FileNotFoundError:
        os.close(current)
        raise
    except OSError as exc:
        a_file = exc.errno == errno.ENOTDIR and not _is_link(name, current)
        os.close(current)
        why = "a part of it is a file, not a folder" if a_file else _CHANGED
        raise _refused(shown, why) from exc
    except BaseException:
        os.close(current)
        raise
    return current


def _is_link(name: str, folder: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def check_file(fd: int, root_dev: int, shown: str) -> os.stat_result:
    """``fstat`` of an opened file, refused unless it is a plain regular file of the root's
    device with a single hard link."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise _refused(shown, "it is not a regular file (a folder, pipe, socket or device)")
    if info.st_dev != root_dev:
        raise _refused(shown, "it is on another file system than the project")
    if info.st_nlink > 1:
        raise _refused(
            shown,
            f"it has {info.st_nlink} hard links, so it may be a file from outside the project; "
            "copy it into the project to use it",
        )
    return info


@contextlib.contextmanager
def open_confined(root: Path, relative: str | Path) -> Iterator[tuple[int, os.stat_result]]:
    """The opened, checked file at ``relative`` (under the resolved ``root``) and its stat.

    Raises :class:`FileNotFoundError` when it does not exist and :class:`PathRefused` when it
    may not be read."""
    parts = Path(relative).parts
    shown = Path(relative).as_posix()
    if not parts:
        raise _refused(shown, "it is the project folder itself, not a file")
    root_fd = open_root(root)
    try:
        root_dev = os.fstat(root_fd).st_dev
        folder = open_folder(root_fd, parts[:-1], shown)
    finally:
        os.close(root_fd)
    try:
        if parts[-1].casefold() in VCS_FOLDERS:
            raise _refused(shown, "it is inside version-control data")
        try:
            fd = os.open(parts[-1], _FILE_FLAGS, dir_fd=folder)
        except FileNotFoundError:
            raise
        except OSError as exc:  # ELOOP: the file is a link (or was swapped for one)
            raise _refused(shown, _CHANGED) from exc
    finally:
        os.close(folder)
    try:
        info = check_file(fd, root_dev, shown)
        yield fd, info
    finally:
        os.close(fd)


def read_confined(root: Path, relative: str | Path, limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of the file (one more than allowed tells a caller it is
    over the limit without reading a huge or sparse file through)."""
    with open_confined(root, relative) as (fd, _info):
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def replace_confined(root: Path, relative: str | Path, data: bytes) -> None:
    """Write ``data`` to ``relative`` atomically: a temp file in the same folder (opened
    through the same handles), fsync, then a rename over the target. Missing folders are
    created; an existing file keeps its permission bits."""
    prepare_replace(root, relative, data).commit()


class PreparedWrite:
    """New bytes for one file, written and flushed beside it but not in place yet.

    :func:`prepare_replace` does the long part (writing, flushing); :meth:`commit` only names
    the new file and renames it over the target, which takes microseconds. A change of several
    files prepares them all first and then commits them one after the other, so a process
    killed while writing leaves every file as it was, and only a kill in the instants between
    the renames can leave some files changed and others not."""

    def __init__(
        self,
        folder: int,
        name: str,
        temp: str,
        unnamed: int | None,
        made: tuple[Path, list[str]],
    ) -> None:
        self._folder: int | None = folder
        self._name = name
        self._temp = temp
        self._unnamed = unnamed  # an O_TMPFILE handle to name at commit, or None: named now
        self._root, self.created_folders = made
        """The folders made for the file (discarding the write removes them again)."""

    def commit(self) -> None:
        """Put the new bytes in place of the file (raises what the system raises)."""
        folder = self._handle()
        try:
            if self._unnamed is not None:
                os.link(
                    f"/proc/self/fd/{self._unnamed}",
                    self._temp,
                    dst_dir_fd=folder,
                    follow_symlinks=True,
                )
            os.replace(self._temp, self._name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            self.discard()
            raise
        self._close()

    def discard(self) -> None:
        """Drop the new bytes; the file and its folders stay as they were."""
        if self._folder is None:
            return
        if self._unnamed is None:
            with contextlib.suppress(OSError):
                os.unlink(self._temp, dir_fd=self._folder)
        self._close()
        remove_empty_folders(self._root, self.created_folders)

    def _handle(self) -> int:
        if self._folder is None:
            raise ValueError("this write was committed or discarded already")
        return self._folder

    def _close(self) -> None:
        if self._unnamed is not None:
            os.close(self._unnamed)
            self._unnamed = None
        if self._folder is not None:
            os.close(self._folder)
            self._folder = None


def prepare_replace(root: Path, relative: str | Path, data: bytes) -> PreparedWrite:
    """``data`` written and flushed in the folder of ``relative`` (created if missing), with
    the file's permission bits, ready to :meth:`~PreparedWrite.commit` in its place.

    The bytes go to an unnamed file (``O_TMPFILE``), named only at commit, so a kill before
    then leaves nothing behind; where the file system has no unnamed files (or there is no
    ``/proc`` to name one through) a ``.NAME.XXXXXXXX.tmp`` is written instead."""
    parts = Path(relative).parts
    shown = Path(relative).as_posix()
    if not parts or parts[-1].casefold() in VCS_FOLDERS:
        raise _refused(shown, "it is not a file the tools may write")
    created: list[str] = []
    root_fd = open_root(root)
    try:
        folder = open_folder(root_fd, parts[:-1], shown, create=True, created=created)
    except BaseException:
        remove_empty_folders(root, created)
        raise
    finally:
        os.close(root_fd)
    name = parts[-1]
    temp = f".{name[:200]}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        mode = _mode_for(folder, name, shown)
        unnamed = _write_unnamed(folder, data, mode)
        if unnamed is None:
            _write_named(folder, temp, data, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        os.close(folder)
        remove_empty_folders(root, created)
        raise
    return PreparedWrite(folder, name, temp, unnamed, (root, created))


def remove_empty_folders(root: Path, folders: Sequence[str]) -> None:
    """Remove each of ``folders`` (paths below the root) that is empty, deepest first, through
    the same handles; one that holds anything, or is gone, stays as it is."""
    for folder in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        parts = Path(folder).parts
        if not parts:
            continue
        try:
            root_fd = open_root(root)
            try:
                parent = open_folder(root_fd, parts[:-1], folder)
            finally:
                os.close(root_fd)
        except (OSError, PathRefused):
            continue
        try:
            os.rmdir(parts[-1], dir_fd=parent)
        except OSError:
            pass
        finally:
            os.close(parent)


def remove_confined(root: Path, relative: str | Path) -> None:
    """Delete the regular file at ``relative`` through the same handles (never a link, folder
    or device; a file that is already gone raises :class:`FileNotFoundError`)."""
    parts = Path(relative).parts
    shown = Path(relative).as_posix()
    if not parts or parts[-1].casefold() in VCS_FOLDERS:
        raise _refused(shown, "it is not a file the tools may write")
    root_fd = open_root(root)
    try:
        folder = open_folder(root_fd, parts[:-1], shown)
    finally:
        os.close(root_fd)
    try:
        existing = os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
        if not stat.S_ISREG(existing.st_mode):
            raise _refused(shown, "it is not a regular file (a link, folder or device)")
        os.unlink(parts[-1], dir_fd=folder)
    finally:
        os.close(folder)


def _mode_for(folder: int, name: str, shown: str) -> int:
    """The permission bits the new file gets: the existing file's (refused unless it is a
    regular file), else ``0o644``."""
    try:
        existing = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return 0o644
    if not stat.S_ISREG(existing.st_mode):
        raise _refused(shown, "it is not a regular file (a link, folder or device)")
    return stat.S_IMODE(existing.st_mode)


def _write_all(fd: int, data: bytes, mode: int) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fchmod(fd, mode)
    os.fsync(fd)


def _write_unnamed(folder: int, data: bytes, mode: int) -> int | None:
    """An unnamed file in ``folder`` holding ``data`` (its open handle), or ``None`` where
    unnamed files or ``/proc`` (to name one through) are not available."""
    flags = getattr(os, "O_TMPFILE", 0)
    if not flags or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        fd = os.open(".", flags | os.O_WRONLY | os.O_CLOEXEC, 0o600, dir_fd=folder)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            return None
        raise
    try:
        _write_all(fd, data, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_named(folder: int, temp: str, data: bytes, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    fd = os.open(temp, flags, 0o600, dir_fd=folder)
    try:
        _write_all(fd, data, mode)
    finally:
        os.close(fd)
