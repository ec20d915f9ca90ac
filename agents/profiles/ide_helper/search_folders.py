"""Folder handles for ``search_code``: each folder of the root opened once, with no link
followed on the way, so a file is opened relative to its folder's handle and a folder swapped
for a link between two reads is never followed out of the project.

A small cache keeps the handles of recent folders (files arrive sorted, mostly folder by
folder), closing the oldest past :data:`MAX_OPEN_FOLDERS` so a tree of thousands of folders
never runs out of file descriptors.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from types import TracebackType

from agents.confined_files import open_folder, open_root
from agents.errors import ToolError

FILE_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)  # a named pipe opens at once instead of waiting for a writer
    | getattr(os, "O_CLOEXEC", 0)
)

MAX_OPEN_FOLDERS = 64


class FolderHandles:
    """Handles on folders below the resolved ``root``, by root-relative POSIX path."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._root_fd = open_root(root)
        self.root_dev = os.fstat(self._root_fd).st_dev
        self._open: OrderedDict[str, int | None] = OrderedDict()

    def __enter__(self) -> FolderHandles:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for fd in self._open.values():
            if fd is not None:
                os.close(fd)
        self._open.clear()
        os.close(self._root_fd)

    def get(self, folder: str, *, follow: bool = True) -> int | None:
        """The folder's handle, or ``None`` when it cannot be opened inside the root (it is
        gone, or leads outside). ``follow``: a folder reached through a link inside the root
        is opened at the real path it resolves to."""
        if folder in self._open:
            self._open.move_to_end(folder)
            return self._open[folder]
        fd = self._opened(folder, follow)
        self._open[folder] = fd
        if len(self._open) > MAX_OPEN_FOLDERS:
            _, oldest = self._open.popitem(last=False)
            if oldest is not None:
                os.close(oldest)
        return fd

    def _opened(self, folder: str, follow: bool) -> int | None:
        parts = [part for part in folder.split("/") if part]
        try:
            return open_folder(self._root_fd, parts, folder)
        except (OSError, ToolError):
            if not follow:
                return None
        base = str(self.root)
        real = os.path.realpath(os.path.join(base, *parts))
        if real != base and not real.startswith(base + os.sep):
            return None
        inside = [part for part in os.path.relpath(real, base).split(os.sep) if part != "."]
        try:
            return open_folder(self._root_fd, inside, folder)
        except (OSError, ToolError):
            return None
