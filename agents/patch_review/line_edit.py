"""A line-range edit of a text, with lines as ``read_file`` numbers them.

The class of mistakes this closes: the lines ``propose_edit`` replaces must be the lines the
model read and the user sees. ``read_file`` splits a file after each ``"\\n"`` (a ``"\\r\\n"``
is one ending) and nowhere else, so here too. Python's ``str.splitlines`` also breaks at a lone
``"\\r"``, form feed, vertical tab, ``\\x1c``-``\\x1e``, NEL (``\\x85``) and the Unicode line
and paragraph separators (U+2028, U+2029): a file or an edit holding one of them (a form feed
in C or Python sources, U+2028 in a JavaScript string) would be numbered differently and the
edit would land on other lines, or gain line breaks the model never wrote.

The guarantee of :func:`replace_lines`, for any text and any valid range:

- the lines outside the range are kept byte for byte (but a last line without a newline
  gains the file's ending when lines are added after it);
- the new lines are ``new_content`` split at ``"\\n"`` only (a ``"\\r\\n"`` there is one
  ending), every other character kept as written, each line ending with the file's own line
  ending (the one most of its lines use; ``"\\n"`` when none or a tie);
- the file's byte-order mark stays first (it is not part of line 1: the model never sees or
  writes it), and a file without a final newline keeps none when the edit reaches its end.

:func:`unified_diff` shows the change with the same lines, and says when a last line has no
newline (``\\ No newline at end of file``), so the diff reads as the bytes written.
"""

from __future__ import annotations

import difflib

BOM = "\ufeff"


def split_lines(text: str) -> list[str]:
    """``text`` as its lines, each with its ending: split after each ``"\\n"`` only."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def line_ending_of(text: str) -> str:
    """The ending most lines of ``text`` use: ``"\\r\\n"`` or ``"\\n"`` (ties and none: ``\\n``)."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf > text.count("\n") - crlf else "\n"


def line_count(text: str) -> int:
    """How many lines ``read_file`` shows for ``text`` (its byte-order mark is not a line)."""
    return len(split_lines(text.removeprefix(BOM)))


def replace_lines(text: str, start_line: int, end_line: int, new_content: str) -> str:
    """``text`` with lines ``start_line``..``end_line`` (1-based, inclusive; ``end_line =
    start_line - 1`` inserts) replaced by ``new_content``. The range must fit
    (``1 <= start_line <= count + 1``, ``start_line - 1 <= end_line <= count``)."""
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom) :]
    newline = line_ending_of(body)
    old_lines = split_lines(body)
    replacement = [
        line.removesuffix("\n") + newline for line in split_lines(new_content.replace("\r\n", "\n"))
    ]
    before = old_lines[: start_line - 1]
    after = old_lines[end_line:]
    if before and not before[-1].endswith("\n"):
        # Appending after a last line that had no newline: give that line one.
        before[-1] += newline
    if replacement and not after and old_lines and not body.endswith("\n"):
        # The file had no final newline and the edit reaches its end: keep it that way.
        replacement[-1] = replacement[-1][: -len(newline)]
    return bom + "".join(before + replacement + after)


def unified_diff(old: str, new: str, fromfile: str, tofile: str) -> str:
    """The unified diff of two texts over :func:`split_lines`, with git's marker after a last
    line that has no newline (else the next diff line would run on after it)."""
    out: list[str] = []
    for line in difflib.unified_diff(split_lines(old), split_lines(new), fromfile, tofile):
        out.append(line)
        if not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)
