"""The scrubber's shortcut (no pattern search where no key can start) never changes a line.

The class: every text, keys of every form the pattern knows (``sk-``/``pk-``/``rk-`` keys,
bearer tokens in any case and after any blank) among letters whose case folds oddly (the Kelvin
sign, the long s, dotless and dotted i, the German sharp s), scrubbed with the shortcut, is
what the key pattern alone makes of it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from weaver_tui.core.logs import _KEY_PATTERN, SecretScrubber

PIECES = st.sampled_from(
    ["sk-", "pk-", "rk-", "k-", "K-", "\u212a-", "SK-", "bearer", "Bearer", "BEARER", "bEaReR",
     "be\u0430rer", "\u017f", "\u0131", "\u0130", "\u00df", "\u1e9e", " ", "\t", "\n", "-", "_",
     ".", "abcdefgh", "ABCD1234", "0123456789", "é", "x"]
)  # fmt: skip
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=TEXTS, secret=st.sampled_from(["", "sk-abcdefgh12", "my-secret-value"]))
def test_the_shortcut_scrubs_every_text_as_the_pattern_does(text: str, secret: str) -> None:
    scrubber = SecretScrubber([secret] if secret else [])
    expected = text
    if secret:
        expected = expected.replace(secret, "[REDACTED]")
    expected = _KEY_PATTERN.sub("[REDACTED]", expected)

    assert scrubber(text) == expected


def test_keys_in_a_long_line_are_scrubbed_and_a_plain_one_is_left_as_it_is() -> None:
    plain = "word " * 20_000
    scrubber = SecretScrubber()

    assert scrubber(plain) is plain
    assert (
        scrubber(plain + "Authorization: BEARER abcdefgh123") == plain + "Authorization: [REDACTED]"
    )
    assert scrubber(plain + "key sk-abcdefgh123 end") == plain + "key [REDACTED] end"
