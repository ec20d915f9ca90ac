"""Server-sent events cut from the bytes of each read, as the SDK's decoder reads them."""

from __future__ import annotations

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
