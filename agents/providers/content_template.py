"""The usual text chunk read from its bytes, without parsing the JSON around its text.

A server writes the text chunks of one reply as the same JSON around a different string: the
id, creation time, model and choice fields repeat, only ``delta.content`` changes. Parsing
every event whole into dictionaries costs more than the rest of its way through the stream.
:class:`ContentTemplate` learns, from one event parsed whole and found to be of the usual shape
(:func:`agents.providers.chunk_merge.content_only`), the bytes before and after its text; a
later event made of the same bytes around another JSON string is read as that string alone.

Guarantee (tested over generated chunks, key orders, spacings, escapes and near misses): for
every event's bytes, :meth:`ContentTemplate.content_of` returns ``None`` (read it the long way)
or exactly ``content_only(parse_json(data))`` of a chunk whose ``object`` is not ``"error"``;
the short way never reads an event otherwise than the long way does.

Why it holds: a template is kept only when putting a probe string between its two parts parses
(by orjson, the long way's first reader) to the learnt chunk with the probe as its content and
nothing else changed. That parse succeeding means the prefix ends between two JSON tokens (a
string token opened inside the prefix would be closed by the probe's quote and leave its
backslash outside any string, which no JSON allows) and the slot is ``delta.content``'s value
(anything else would change another field, or a key). JSON's grammar is context-free, so any
single string token, with any whitespace around it, in that slot gives the same chunk with
that string as its content; the middle of an event is accepted only when orjson reads it
alone as a string.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from agents.providers.sse_events import SseEvent

_PROBE = '\u0001probe \\ " \u2028 \U0001f600'
"""The string put in a learnt slot to check it: escapes, a control and a non-BMP character."""


class ContentTemplate:
    """The bytes around the text of one reply's usual chunk (see the module)."""

    __slots__ = ("_least", "_prefix", "_suffix")

    def __init__(self, prefix: bytes, suffix: bytes) -> None:
        self._prefix = prefix
        self._suffix = suffix
        self._least = len(prefix) + len(suffix) + 2
        """The shortest event that may fit: the two parts around an empty string."""

    @classmethod
    def learn(cls, data: bytes, content: str) -> ContentTemplate | None:
        """The template of ``data``, an event of the usual shape whose text is ``content``
        (``None`` when its text is not found once as orjson or ``json`` writes it, when orjson
        cannot write it, or when the check of the slot fails)."""
        try:
            ways = (orjson.dumps(content), json.dumps(content).encode())
        except TypeError:  # a lone surrogate, which orjson neither writes nor reads
            return None
        for written in ways:
            if data.count(written) != 1:
                continue
            prefix, suffix = data.split(written)
            if _slot_is_content(data, prefix, suffix):
                return cls(prefix, suffix)
        return None

    def content_of(self, data: bytes) -> str | None:
        """The text of ``data`` when it is this template around one JSON string, else
        ``None``."""
        prefix, suffix = self._prefix, self._suffix
        if len(data) < self._least or not data.startswith(prefix) or not data.endswith(suffix):
            return None
        try:
            content = orjson.loads(data[len(prefix) : len(data) - len(suffix)])
        except orjson.JSONDecodeError:
            return None
        return content if type(content) is str else None

    def texts_of(self, events: list[SseEvent], start: int) -> tuple[list[str], int]:
        """The texts of the events from ``start`` on that fit (unnamed ones), up to the first
        that does not, and where that one is: what :meth:`content_of` gives for each, read in
        one sweep; empty texts left out."""
        prefix, suffix, least = self._prefix, self._suffix, self._least
        cut = len(prefix)
        texts: list[str] = []
        end = start
        if end >= len(events) or not events[end][1].startswith(prefix):
            return texts, end  # one look, no copy, for an event read whole (and the next ...)
        loads, string = orjson.loads, str
        for name, data in events[start:]:
            if (
                name is not None
                or len(data) < least
                or not data.startswith(prefix)
                or not data.endswith(suffix)
            ):
                break
            try:
                text = loads(data[cut : len(data) - len(suffix)])
            except orjson.JSONDecodeError:
                break
            if type(text) is not string:
                break
            end += 1
            if text:
                texts.append(text)
        return texts, end


def _slot_is_content(data: bytes, prefix: bytes, suffix: bytes) -> bool:
    """Whether a probe string between ``prefix`` and ``suffix`` parses to ``data``'s chunk
    with the probe as its content and nothing else changed."""
    try:
        expected: Any = orjson.loads(data)
        probed = orjson.loads(prefix + orjson.dumps(_PROBE) + suffix)
    except orjson.JSONDecodeError:
        return False
    try:
        expected["choices"][0]["delta"]["content"] = _PROBE
    except (KeyError, IndexError, TypeError):
        return False
    return bool(probed == expected)
