"""Server-sent events, cut from the bytes of a response as they arrive.

The OpenAI SDK's own decoder hands its reader one event at a time; the chat stream that
merges events (:mod:`agents.providers.coalesced_stream`) wants every event that one network
read brought, at once. :class:`SseEventParser` is fed the bytes of each read and returns the
events completed by them, as the SDK's decoder reads them: ``data:`` lines joined by a newline,
one space after the colon dropped, ``event:`` kept, comments and ``id:``/``retry:`` ignored, lines
ended by CRLF, LF or CR, an event ended by an empty line, and a byte order mark at the start of
the stream dropped (as the SSE standard says: it is not part of the first line).
"""

from __future__ import annotations

_BOM = b"\xef\xbb\xbf"

SseEvent = tuple[str | None, bytes]
"""One event: its ``event:`` name (``None`` when it has none) and its data, undecoded."""


class SseEventParser:
    """Incremental parser of one response: ``feed`` the bytes of every read, in order."""

    __slots__ = ("_rest", "_started")

    def __init__(self) -> None:
        self._rest = b""
        """The bytes after the last complete event: an event still arriving."""
        self._started = False
        """Whether the stream's first bytes (where a byte order mark may be) have come."""

    def feed(self, piece: bytes) -> list[SseEvent]:
        """The events that ``piece`` completes; an event cut in two waits for its end."""
        if not self._started:
            piece = self._rest + piece
            self._rest = b""
            if len(piece) < len(_BOM) and _BOM.startswith(piece):
                self._rest = piece  # the mark may be cut between reads
                return []
            self._started = True
            piece = piece.removeprefix(_BOM)
        text = self._rest + piece if self._rest else piece
        if b"\r" in text:
            text = _lf_lines(text)
        blocks = text.split(b"\n\n")
        self._rest = blocks.pop()
        if _all_one_data_line(text, len(text) - len(self._rest), len(blocks)):
            return [(None, block[6:]) for block in blocks]
        events: list[SseEvent] = []
        for block in blocks:
            if block.startswith(b"data: ") and b"\n" not in block:
                events.append((None, block[6:]))  # the usual event: one data line
            elif block:
                event = _event_of(block)
                if event is not None:
                    events.append(event)
        return events


def _all_one_data_line(text: bytes, end: int, count: int) -> bool:
    """Whether each of the ``count`` events in ``text[:end]`` (each followed by an empty line)
    is the usual one: a single ``data: `` line.

    No event holds a line end when the line ends number two per event (those that end it);
    then a line end pair followed by ``d`` can only be the one just before an event, so
    ``count`` pairs followed by ``data: `` mean every event begins so (an empty event, the
    one between two such pairs, is followed by another line end)."""
    if not count or text.count(b"\n", 0, end) != 2 * count:
        return False
    return text.startswith(b"data: ") and text.count(b"\n\ndata: ", 0, end) == count - 1


def _event_of(block: bytes) -> SseEvent | None:
    """The event of the lines between two empty lines (``None`` when it has no data and no
    name: comments, ``id:`` or ``retry:`` alone)."""
    data: list[bytes] = []
    name: str | None = None
    for line in block.split(b"\n"):
        if line.startswith(b"data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(b" ") else value)
        elif line.startswith(b"event:"):
            value = line[6:]
            name = (value[1:] if value.startswith(b" ") else value).decode() or None
    if not data and name is None:
        return None
    return name, b"\n".join(data)


def _lf_lines(text: bytes) -> bytes:
    """``text`` with CRLF and lone CR line ends made LF; a CR at its very end is kept as it
    is, since the next read may bring its LF."""
    tail = b"\r" if text.endswith(b"\r") else b""
    body = text[: len(text) - len(tail)]
    return body.replace(b"\r\n", b"\n").replace(b"\r", b"\n") + tail
