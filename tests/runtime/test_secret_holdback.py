"""A reply's stream never lets a key this process uses out, however it is split: fed any text in
which a key's forms stand anywhere, cut at any places, a
:class:`agents.runtime.secret_holdback.SecretHoldback` lets out pieces whose join shows the key
in no form (``tests.support.remembered_keys.readable_key``); text without a key comes out
unchanged, and nothing is held back that does not end in the start of a key's form."""

from __future__ import annotations

import base64
from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.runtime.secret_holdback import HOLD_FROM, SecretHoldback
from storage.secrets import REDACTED, known_secret_forms
from tests.support.remembered_keys import readable_key, remembered

keys = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=8, max_size=32
).filter(lambda key: key not in REDACTED and REDACTED not in key)


def _forms(key: str) -> list[str]:
    return [key, quote(key, safe=""), base64.b64encode(f"Bearer {key}".encode()).decode()]


def _cut(text: str, cuts: list[int]) -> list[str]:
    places = sorted({c % (len(text) + 1) for c in cuts})
    return [text[a:b] for a, b in zip([0, *places], [*places, len(text)], strict=True)]


def _stream(pieces: list[str]) -> tuple[str, list[str]]:
    hold = SecretHoldback()
    out, held = [], []
    fed = ""
    for piece in pieces:
        out.append(hold.feed(piece))
        fed += piece
        held.append(fed[len("".join(out)) :])
    out.append(hold.finish())
    return "".join(out), held


@settings(max_examples=200, deadline=None)
@given(
    key=keys,
    words=st.lists(st.text(max_size=8) | st.sampled_from([0, 1, 2]), min_size=1, max_size=8),
    cuts=st.lists(st.integers(0, 400), max_size=12),
)
def test_no_split_lets_a_key_out(key: str, words: list[str | int], cuts: list[int]) -> None:
    text = "".join(_forms(key)[w] if isinstance(w, int) else w for w in words)
    with remembered(key):
        shown, _ = _stream(_cut(text, cuts))
    assert readable_key(shown, key) is None, (text, shown)


@settings(max_examples=200, deadline=None)
@given(key=keys, text=st.text(max_size=80), cuts=st.lists(st.integers(0, 400), max_size=12))
def test_text_without_a_key_comes_out_whole(key: str, text: str, cuts: list[int]) -> None:
    with remembered(key):
        forms = known_secret_forms()
        if any(form in text for form in forms):
            return
        shown, held = _stream(_cut(text, cuts))
        for waiting in held:
            assert waiting == "" or (
                len(waiting) >= HOLD_FROM and any(f.startswith(waiting) for f in forms)
            )
    assert shown == text


def test_a_key_split_in_two_is_redacted() -> None:
    with remembered("myPlainSecretValue42"):
        shown, _ = _stream(["Your key is myPlain", "SecretValue42, ok"])
    assert shown == f"Your key is {REDACTED}, ok"
