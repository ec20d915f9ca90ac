"""How the ``weaver-tui`` command fails: one line on stderr and an exit status."""

from __future__ import annotations

EXIT_FAILURE, EXIT_CONFIG, EXIT_INTERRUPTED = 1, 2, 130


class CliError(Exception):
    """A failure to report as one line; ``code`` is the exit status (2: usage or config)."""

    def __init__(self, message: str, code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.code = code
