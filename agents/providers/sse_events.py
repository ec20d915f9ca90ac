"""Server-sent events, cut from the bytes of a response as they arrive.

The OpenAI SDK's own decoder hands its reader one event at a time; the chat stream that
merges events (:mod:`agents.providers.coalesced_stream`) wants every event that one network
read brought, at once. :class:`SseEventParser` is fed the bytes of each read and returns the
events completed by them, as the SDK's decoder reads them: ``data:`` lines joined by a newline,
one space after the colon dropped, ``event:`` kept, comments and ``id:``/``retry:`` ignored, lines
ended by CRLF, LF or CR, an event ended by an empty line.
"""

from __future__ import annotations

from typing import NamedTuple


class SseEvent(NamedTuple):
    """One event: its ``event:`` name (``None`` when it has none) and its data, undecoded."""

    name: str | None
    data: bytes


class SseEventParser:
    """Incremental parser of one response: ``feed`` the bytes of every read, in order."""

    __slots__ = ("_data", "_name", "_rest")

    def __init__(self) -> None:
        self._rest = b""
        self._data: list[bytes] = []
        self._name: str | None = None

    def feed(self, piece: bytes) -> list[SseEvent]:
        """The events that ``piece`` completes; a line cut in two waits for its end."""
        text = self._rest + piece if self._rest else piece
        if b"\r" in text:
            text = _lf_lines(text)
        lines = text.split(b"\n")
        self._rest = lines.pop()
        events: list[SseEvent] = []
        for line in lines:
            if not line:
                if self._data or self._name is not None:
                    events.append(SseEvent(self._name, b"\n".join(self._data)))
                    self._data, self._name = [], None
            elif line.startswith(b"data:"):
                value = line[5:]
                self._data.append(value[1:] if value.startswith(b" ") else value)
            elif line.startswith(b"event:"):
                value = line[6:]
                self._name = (value[1:] if value.startswith(b" ") else value).decode() or None
        return events


def _lf_lines(text: bytes) -> bytes:
    """``text`` with CRLF and lone CR line ends made LF; a CR at its very end is kept as it
    is, since the next read may bring its LF."""
    tail = b"\r" if text.endswith(b"\r") else b""
    body = text[: len(text) - len(tail)]
    return body.replace(b"\r\n", b"\n").replace(b"\r", b"\n") + tail
