"""A server's stderr, line by line, into the log: a stdio server that talks on stderr must
never draw over the app's screen."""

from __future__ import annotations

import logging
import os
import threading
from typing import TextIO

from storage.printable import printable

logger = logging.getLogger(__name__)

LINE_CHARS = 2_000
"""The longest stderr line kept in the log (the rest is dropped, saying how much)."""


class StderrToLog:
    """A pipe whose write end is the server's stderr; a daemon thread logs what it reads.

    The thread ends when every writer has closed the pipe (the server exited and
    :meth:`close` was called).
    """

    def __init__(self, server: str) -> None:
        read_fd, write_fd = os.pipe()
        self.server = server
        self.file: TextIO = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self._reader = threading.Thread(
            target=self._pump, args=(read_fd,), name=f"mcp-stderr:{server}", daemon=True
        )
        self._reader.start()

    def _pump(self, read_fd: int) -> None:
        with os.fdopen(read_fd, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                text = printable(line.rstrip("\n"))
                if len(text) > LINE_CHARS:
                    text = f"{text[:LINE_CHARS]} [{len(text) - LINE_CHARS} more characters]"
                if text.strip():
                    logger.info("mcp server stderr", extra={"server": self.server, "line": text})

    def close(self) -> None:
        """Close our copy of the write end (the server keeps its own until it exits)."""
        if not self.file.closed:
            self.file.close()
