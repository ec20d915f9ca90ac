"""The hand-made hostile PDFs: the bomb's zlib data, made from one compressed block repeated,
inflates to exactly the content it stands for and passes zlib's own checksum."""

from __future__ import annotations

import zlib

import pytest

from tests.support.hostile_pdfs import bomb_pdf, repeat_deflated


def _inflated(data: bytes) -> bytes:
    inflate = zlib.decompressobj()
    out = inflate.decompress(data) + inflate.flush()
    assert inflate.eof  # the stream ended where it should, its Adler-32 sum checked
    assert inflate.unused_data == b""
    return out


@pytest.mark.parametrize(
    ("head", "unit", "count", "tail"),
    [
        (b"BT ", b"(a) Tj ", 1, b"ET"),
        (b"", b"xy", 3 * (1 << 19), b""),  # whole blocks only
        (b"BT /F1 12 Tf ", b"(a) Tj ", 1_000_003, b"ET"),  # blocks and a rest
    ],
)
def test_repeated_units_inflate_to_exactly_their_content(
    head: bytes, unit: bytes, count: int, tail: bytes
) -> None:
    assert _inflated(repeat_deflated(head, unit, count, tail)) == head + unit * count + tail


def test_the_bomb_is_small_and_inflates_to_what_it_says() -> None:
    pdf = bomb_pdf(70_000_000)
    assert len(pdf) < 200_000
    stream = pdf.split(b"\nstream\n", 1)[1].split(b"\nendstream", 1)[0]
    inflated = _inflated(stream)
    assert len(inflated) == len(b"BT /F1 12 Tf ") + 7 * 10_000_000 + len(b"ET")
    assert inflated.startswith(b"BT /F1 12 Tf (a) Tj (a) Tj ")
