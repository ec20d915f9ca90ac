"""Small PDFs written by hand: a plain one holding a sentence, and ones that are hard to read
(a page whose compressed content takes pypdf minutes to walk, and a stream that inflates past
any sane size: a compressed-stream bomb)."""

from __future__ import annotations

import zlib


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF holding ``text`` in Helvetica, uncompressed."""
    return pdf_with_page_content(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode(), compress=False)


def pdf_with_page_content(content: bytes, *, compress: bool = True) -> bytes:
    """A one-page PDF whose page content is ``content``, Flate-compressed unless told not to
    (written by hand: no PDF writer needed)."""
    return pdf_with_stream(zlib.compress(content, 9) if compress else content, compress)


def pdf_with_stream(stream: bytes, compressed: bool) -> bytes:
    """A one-page PDF whose page content is ``stream`` (zlib data when ``compressed``)."""
    length = b"<< /Length %d /Filter /FlateDecode >>" if compressed else b"<< /Length %d >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        length % len(stream) + b"\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return out


def slow_pdf(operations: int = 1_500_000) -> bytes:
    """A PDF of some kilobytes whose one page shows a letter ``operations`` times: pypdf walks
    about 12,000 of them a second here, so the default takes it minutes."""
    return pdf_with_page_content(b"BT /F1 12 Tf " + b"(a) Tj " * operations + b"ET")


def bomb_pdf(inflated_bytes: int = 400_000_000) -> bytes:
    """A PDF of a few hundred kilobytes whose page content inflates to ``inflated_bytes``."""
    stream = repeat_deflated(b"BT /F1 12 Tf ", b"(a) Tj ", inflated_bytes // 7, b"ET")
    return pdf_with_stream(stream, compressed=True)


def repeat_deflated(head: bytes, unit: bytes, count: int, tail: bytes) -> bytes:
    """The zlib data of ``head + unit * count + tail``, made without compressing every unit:
    after a full flush the compressor keeps nothing of what came before and the output is
    byte-aligned, so one flushed block of units, compressed once, stands for each repeat."""
    per_block = max(1, min(count, (1 << 20) // len(unit)))
    blocks, rest = divmod(count, per_block)
    units = unit * per_block
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: header and sum are ours
    start = deflate.compress(head) + deflate.flush(zlib.Z_FULL_FLUSH)
    block = deflate.compress(units) + deflate.flush(zlib.Z_FULL_FLUSH)
    end = deflate.compress(unit * rest + tail) + deflate.flush()
    adler = zlib.adler32(head)
    for _ in range(blocks):
        adler = zlib.adler32(units, adler)
    adler = zlib.adler32(unit * rest + tail, adler)
    return b"\x78\xda" + start + block * blocks + end + adler.to_bytes(4, "big")
