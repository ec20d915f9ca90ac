"""Server-sent events cut from the bytes of each read, as the SDK's decoder reads them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.providers import sse_events
from agents.providers.sse_events import SseEvent, SseEventParser


def events_of(*reads: bytes) -> list[SseEvent]:
    parser = SseEventParser()
    return [event for read in reads for event in parser.feed(read)]


def test_every_event_a_read_completes_comes_out_of_that_read() -> None:
    parser = SseEventParser()

    first = parser.feed(b'data: {"a": 1}\n\ndata: {"b": 2}\n\ndata: {"c"')
    second = parser.feed(b": 3}\n\n")

    assert first == [(None, b'{"a": 1}'), (None, b'{"b": 2}')]
    assert second == [(None, b'{"c": 3}')]


def test_crlf_and_cr_line_ends_even_when_a_read_ends_between_cr_and_lf() -> None:
    assert events_of(b"data: one\r", b"\n\r\ndata: two\r\rdata: three\n\n") == [
        (None, b"one"),
        (None, b"two"),
        (None, b"three"),
    ]


def test_data_lines_join_names_are_kept_and_comments_are_skipped() -> None:
    read = b": keep-alive\n\nevent: error\ndata: first\ndata:second\nid: 7\nretry: 10\n\n"

    assert events_of(read) == [("error", b"first\nsecond")]


def test_a_character_cut_between_reads_is_whole_in_its_event() -> None:
    text = "data: ñandú\n\n".encode()

    assert events_of(text[:8], text[8:]) == [(None, "ñandú".encode())]


_PIECES = st.sampled_from(
    [b"data: ", b"data:", b"data: {}", b"event: error\n", b": ping\n", b"id: 1\n", b"\n", b"\n\n",
     b"\r\n", b"\r", b"x", b"d", b"data: [DONE]", b"\xef\xbb\xbf", b" ", b"\n\ndata: a"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=30), data=st.data())
def test_the_usual_events_short_way_cuts_every_stream_as_the_long_way(
    pieces: list[bytes], data: st.DataObject
) -> None:
    """The class: any bytes made of event lines, names, comments, line ends of every kind and
    byte order marks, read in any grouping: a read whose events are all single ``data: ``
    lines (cut in one sweep) gives the events the line-by-line way gives."""
    body = b"".join(pieces)
    cuts = sorted(data.draw(st.sets(st.integers(0, len(body)), max_size=8)))
    reads = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    short_way = events_of(*reads)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(sse_events, "_all_one_data_line", lambda *_: False)
        long_way = events_of(*reads)

    assert short_way == long_way


def test_a_read_of_usual_events_takes_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The short way is taken where it is meant to be (else the test above proves little)."""
    taken: list[bool] = []
    real = sse_events._all_one_data_line

    def spy(text: bytes, end: int, count: int) -> bool:
        taken.append(real(text, end, count))
        return taken[-1]

    monkeypatch.setattr(sse_events, "_all_one_data_line", spy)

    assert events_of(b'data: {"a": 1}\n\ndata: {"b": 2}\n\ndata: {"c"') == [
        (None, b'{"a": 1}'),
        (None, b'{"b": 2}'),
    ]
    assert taken == [True]
