"""The review shows every character a patch writes: generated texts of any characters come
back with each one that draws nothing or draws as something else as ``<U+XXXX>``, and the
text written can be read back from the text shown."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patch_review.review_text import review_text
from storage.hidden_characters import reveal_hidden

_MARKER = re.compile(r"<U\+([0-9A-F]{4,6})>")
_UNSEEN = {"Cc", "Zl", "Zp", "Zs"}
# Every category, with the ones that hide text drawn often.
_chars = st.characters(exclude_categories=["Cs"]) | st.sampled_from(
    ["\x1b", "\x08", "\r", "\x7f", "\x85", "\x9b", "\u00a0", "\u2007", "\u3000", "\u2028",
     "\u2029", "\u202e", "\u200b", "\ufeff", "\t", "\n", " ", "a", "+", "-"]
)  # fmt: skip


@given(text=st.lists(_chars, max_size=40).map("".join))
@settings(max_examples=200, deadline=None)
def test_every_character_is_seen_and_the_text_reads_back(text: str) -> None:
    shown = review_text(text)
    for char in shown:
        if char not in "\t\n ":
            assert unicodedata.category(char) not in _UNSEEN, repr(char)
    assert reveal_hidden(shown) == shown  # no format character left but those a script needs
    rows = text.split("\n")
    changed = [
        i
        for i, row in enumerate(rows)
        if row[:1] in "+-" and not (i < 2 and row[:4] in ("--- ", "+++ "))
    ]
    shown_rows = shown.split("\n")
    for index in changed:  # a tab on an added or removed row is never plain whitespace
        assert "\t" not in shown_rows[index]
        if rows[index].endswith(" "):  # a trailing space is named, not drawn as nothing
            assert shown_rows[index].endswith("<U+0020>")
        if "\u2192" not in text:
            assert shown_rows[index].count("\u2192") == rows[index].count("\t")
    if "<" not in text and not any("\t" in rows[i] for i in changed):
        assert _MARKER.sub(lambda m: chr(int(m[1], 16)), shown) == text


def test_terminal_controls_are_named_not_dropped() -> None:
    assert review_text("a\x1b[8mb\x08c\rd") == "a<U+001B>[8mb<U+0008>c<U+000D>d"
    assert review_text("x\u00a0=\u20281") == "x<U+00A0>=<U+2028>1"
    assert review_text(" \tcontext \n") == " \tcontext \n"
    assert review_text("-x\n+x  \n") == "-x\n+x<U+0020><U+0020>\n"
    assert review_text("-\tcc main.c\n+    cc main.c\n") == "-\u2192  cc main.c\n+    cc main.c\n"
