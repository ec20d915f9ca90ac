"""The text of a PDF for the knowledge index, read with pypdf (pure Python, no other programs).

A PDF is untrusted input: only its first :data:`MAX_PAGES` pages are read, a file pypdf
cannot read is skipped with the reason, and nothing in it is run. A small PDF can still hold a
page whose compressed content takes pypdf minutes to walk, or a stream that inflates to
gigabytes, so :func:`pdf_text_bounded` reads it in a child process (``python -m`` this module)
that limits its own memory and is killed after :data:`PDF_SECONDS`.
"""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys

logger = logging.getLogger(__name__)

MAX_PAGES = 300
"""Pages read at most from one PDF (the rest are left out, and the report says so)."""

PDF_SECONDS = 30.0
"""Wall time one PDF may take to read, the child process's start included."""

PDF_MEMORY_BYTES = 1024 * 1024 * 1024
"""Address space the reading child may use (a stream inflating past it fails the read)."""


class UnreadablePdf(ValueError):
    """A PDF pypdf cannot read (damaged, encrypted, not a PDF, too slow or too big to read)."""


def pdf_text(data: bytes) -> tuple[str, int]:
    """(text of the first pages, pages left out): each page's text, pages parted by a blank
    line, so the index splits them into paragraphs. Runs in this process: see
    :func:`pdf_text_bounded` for a file that is not trusted."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadablePdf("encrypted")
        pages = reader.pages
        texts = [(page.extract_text() or "").strip() for page in pages[:MAX_PAGES]]
        left_out = max(len(pages) - MAX_PAGES, 0)
    except (PyPdfError, ValueError, KeyError, TypeError, RecursionError, MemoryError) as exc:
        # PyPdfError covers a stream that inflates past pypdf's own limit (LimitReachedError)
        raise UnreadablePdf(str(exc) or type(exc).__name__) from exc
    return "\n\n".join(t for t in texts if t), left_out


def pdf_text_bounded(data: bytes, seconds: float | None = None) -> tuple[str, int]:
    """:func:`pdf_text` in a child process limited to :data:`PDF_MEMORY_BYTES` and killed
    after ``seconds`` (default :data:`PDF_SECONDS`); every failure is :class:`UnreadablePdf`."""
    limit = PDF_SECONDS if seconds is None else seconds
    try:
        done = subprocess.run(
            [sys.executable, "-m", __name__],
            input=data,
            capture_output=True,
            timeout=limit,
            check=False,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    except subprocess.TimeoutExpired as exc:
        raise UnreadablePdf(f"reading it took longer than {limit:g} s") from exc
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        logger.warning("PDF reader failed", extra={"code": done.returncode,
                                                   "stderr": done.stderr[-500:].decode(errors="replace")})  # fmt: skip
        raise UnreadablePdf(f"the reader stopped (exit code {done.returncode})") from None
    if "error" in answer:
        raise UnreadablePdf(str(answer["error"]))
    return str(answer["text"]), int(answer["left_out"])


def _read_stdin_pdf() -> int:
    """The child's side: limit memory, read the PDF from stdin, answer one JSON object."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (PDF_MEMORY_BYTES, PDF_MEMORY_BYTES))
    data = sys.stdin.buffer.read()
    try:
        text, left_out = pdf_text(data)
        answer: dict[str, object] = {"text": text, "left_out": left_out}
    except UnreadablePdf as exc:
        answer = {"error": str(exc)[:200]}
    except Exception as exc:  # noqa: BLE001 (any other failure of pypdf is this file's, said as one)
        answer = {"error": f"{type(exc).__name__}: {str(exc)[:150]}"}
    sys.stdout.write(json.dumps(answer))
    return 0


if __name__ == "__main__":
    logging.disable(
        logging.WARNING
    )  # pypdf's warnings about a damaged file are the parent's to say
    sys.exit(_read_stdin_pdf())
