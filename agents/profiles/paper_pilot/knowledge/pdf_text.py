"""The text of a PDF for the knowledge index, read with pypdf (pure Python, no other programs).

A PDF is untrusted input: only its first :data:`MAX_PAGES` pages are read, a file pypdf
cannot read is skipped with the reason, and nothing in it is run.
"""

from __future__ import annotations

import io
import logging

logger = logging.getLogger(__name__)

MAX_PAGES = 300
"""Pages read at most from one PDF (the rest are left out, and the report says so)."""


class UnreadablePdf(ValueError):
    """A PDF pypdf cannot read (damaged, encrypted, not a PDF)."""


def pdf_text(data: bytes) -> tuple[str, int]:
    """(text of the first pages, pages left out): each page's text, pages parted by a blank
    line, so the index splits them into paragraphs."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadablePdf("encrypted")
        pages = reader.pages
        texts = [(page.extract_text() or "").strip() for page in pages[:MAX_PAGES]]
        left_out = max(len(pages) - MAX_PAGES, 0)
    except (PdfReadError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise UnreadablePdf(str(exc) or type(exc).__name__) from exc
    return "\n\n".join(t for t in texts if t), left_out
