"""What the command line writes to a terminal: printable, always.

Every headless verb's output (``ask``'s stream and tool lines, ``conversations``, ``export`` to
stdout, ``atom check``, ``kb``, ``memory``, ``space open`` / ``close``, argparse's own messages
and the one-line errors) can quote text the user does not control: a provider's answer, an
imported title, an atom's exception, a note's text. Rather than trusting every ``print`` to
remember :func:`storage.printable.printable`, :func:`printable_output` puts a
:class:`PrintableStream` in front of ``sys.stdout`` and ``sys.stderr`` for the whole verb, so
no write can carry an escape sequence or a control character (tab and newline stay). A JSON
stream written to stdout (``export --format jsonl``) is unchanged by it: JSON escapes every
control character itself.

The verbs that own a terminal are not wrapped: the app (Textual draws with escape sequences),
``serve`` and ``acp`` (a server, and JSON-RPC on stdio), ``space seat`` (an app) and ``space
join``, whose relay passes only the sequences a Textual app draws
(:mod:`weaver_tui.core.cli.relay_filter`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from storage.printable import printable


class PrintableStream:
    """A text stream that writes to ``stream`` only what :func:`printable` keeps, and a carriage
    return at the very start of a write: a progress line (``kb add``) redraws itself with one,
    and one at the start can only return to the line it writes, never hide a later word."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if text.startswith("\r"):
            self._stream.write("\r" + printable(text[1:]))
        else:
            self._stream.write(printable(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()

    @property
    def encoding(self) -> str:
        return self._stream.encoding

    @property
    def errors(self) -> str | None:
        return self._stream.errors

    @property
    def wrapped(self) -> TextIO:
        """The stream written to (for a verb that must check what it is, never to write)."""
        return self._stream


@contextlib.contextmanager
def printable_output() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` printable for the duration (see the module)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = PrintableStream(out)
    sys.stderr = PrintableStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def owns_the_terminal(verb: str | None, action: str | None) -> bool:
    """Whether a verb draws on the terminal itself (or speaks a protocol on stdio): then its
    output is not filtered here (see the module)."""
    return verb in (None, "serve", "acp") or (verb == "space" and action in ("join", "seat"))
