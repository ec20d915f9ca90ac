"""Whatever text reaches a terminal passes :func:`storage.printable.printable`, so its guarantee
is checked for any text (hypothesis ``st.text()`` with every member of the class injected):
what comes out holds no C0 control but tab and newline, no DEL, no C1 control (8-bit CSI, OSC,
DCS ...), no bidi embedding, override or isolate, and no lone surrogate; it encodes as UTF-8;
and a second pass changes nothing. JSON written to a file to be read (an export, the log) keeps
its value (a lone surrogate as U+FFFD, as the store keeps it) but carries none of those raw
(:func:`storage.printable.printable_json`)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.printable import printable, printable_json, printable_title
from tests.storage.test_storable_text import whole

INJECTED = [
    "\x1b", "\x07", "\x08", "\r", "\x00", "\x7f", "\x9b", "\x9d", "\x90", "\x9c", "\x85",
    "\x1b[31m", "\x1b]52;c;Y3VybA==\x07", "\x1b]8;;http://evil.example\x1b\\", "\x9b2J",
    "\u202e", "\u202a", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069",
    "\ud800", "\udfff", "\udcff", "\ud83d",
]  # fmt: skip
hostile = st.lists(st.sampled_from(INJECTED) | st.text(max_size=12), min_size=1, max_size=10).map(
    "".join
)


def unsafe_in(text: str) -> list[str]:
    """The characters of ``text`` a terminal obeys, reorders by, or no encoder writes."""
    return sorted(
        {
            hex(ord(c))
            for c in text
            if (c < " " and c not in "\n\t")
            or "\x7f" <= c <= "\x9f"
            or "\u202a" <= c <= "\u202e"
            or "\u2066" <= c <= "\u2069"
            or "\ud800" <= c <= "\udfff"
        }
    )


@settings(max_examples=200, deadline=None)
@given(text=hostile)
def test_printable_text_carries_nothing_a_terminal_obeys(text: str) -> None:
    shown = printable(text)
    assert unsafe_in(shown) == []
    shown.encode("utf-8")  # strict: a lone surrogate would raise
    assert printable(shown) == shown
    assert unsafe_in(printable_title(text)) == []


@settings(max_examples=200, deadline=None)
@given(text=hostile)
def test_printable_json_is_the_same_value_with_nothing_raw(text: str) -> None:
    value = {"content": text, "meta": {"name": text, "items": [text]}}
    written = printable_json(json.dumps(value, ensure_ascii=False))
    assert unsafe_in(written) == []
    written.encode("utf-8")
    kept = whole(text)
    assert json.loads(written) == {"content": kept, "meta": {"name": kept, "items": [kept]}}


def test_a_bidi_override_shows_and_a_lone_surrogate_is_replaced() -> None:
    assert printable("pay \u202eredro\u2069 ok") == "pay <U+202E>redro<U+2069> ok"
    assert printable("half \ud83d emoji") == "half \ufffd emoji"
    assert printable("whole 😀 emoji, arabic مرحبا, joiner 👩\u200d💻") == (
        "whole 😀 emoji, arabic مرحبا, joiner 👩\u200d💻"
    )


OPENERS = ["\x1b]", "\x1bP", "\x1bX", "\x1b^", "\x1b_", "\x9d", "\x90", "\x98", "\x9e", "\x9f"]
"""The introducers of control strings (OSC, DCS, SOS, PM, APC, 7- and 8-bit)."""
words = st.text(alphabet=st.characters(categories=["L", "N", "P", "Zs"]), min_size=1, max_size=20)


@settings(max_examples=200, deadline=None)
@given(before=words, opener=st.sampled_from(OPENERS), body=words, after=words)
def test_a_control_string_left_open_hides_nothing_after_it(
    before: str, opener: str, body: str, after: str
) -> None:
    """A stray introducer (no terminator on its line) loses itself alone: the text after it,
    a reply's rest, stays shown (removed whole, it left a reply silently cut)."""
    shown = printable(f"{before}{opener}{body}\n{after}")
    assert shown.startswith(before)
    assert shown.endswith(f"{body}\n{after}")
    assert unsafe_in(shown) == []


@settings(max_examples=200, deadline=None)
@given(before=words, opener=st.sampled_from(OPENERS), body=words, after=words)
def test_a_terminated_control_string_goes_whole(
    before: str, opener: str, body: str, after: str
) -> None:
    terminator = "\x07" if opener in ("\x1b]", "\x9d") else "\x1b\\"
    assert printable(f"{before}{opener}{body}{terminator}{after}") == before + after
