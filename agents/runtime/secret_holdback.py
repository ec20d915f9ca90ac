"""A streamed reply never shows a key this process uses, however the stream splits it.

A provider (or a proxy before it) may put the key it was sent into its answer: echoed in a
sentence, in a header it quotes, percent-encoded or in base64. The store keeps no key
(:func:`storage.codec.storable_text`), but tokens reach the screen, ``ask``'s output and an
editor as they arrive, and a key split over two tokens is in neither token whole. A
:class:`SecretHoldback` stands between the stream and every one of those sinks (the runtime
emits the reply's tokens through it, once): each remembered key, in each of its forms
(:func:`storage.secrets.secret_forms`), is replaced by ``[redacted]``, and a reply's text that
ends in the first :data:`HOLD_FROM` or more characters of a form is held back until the next
token shows whether the form goes on. Guarantee, for any text split anywhere: the pieces let
out, joined, hold no whole form of a key; at most its first ``HOLD_FROM - 1`` characters
stand before ``[redacted]``; and a text holding no form comes out unchanged, its pieces held
back only while they end in the start of a form.
"""

from __future__ import annotations

from storage.secrets import REDACTED, known_secret_forms

HOLD_FROM = 4
"""How many characters of a key's start a piece must end in to be held back: fewer are let out
at once (a token that ends in one letter of a key must not wait), and the rest of the key is
then redacted."""


class SecretHoldback:
    """One reply's (or one reasoning's) stream of text, without the remembered keys."""

    def __init__(self) -> None:
        self._held = ""
        self._tail = ""
        self._forms: tuple[str, ...] = ()
        self._starts: frozenset[str] = frozenset()
        self._longest = 0

    def feed(self, text: str) -> str:
        """What of ``held + text`` can be shown now (the rest is held back)."""
        forms = known_secret_forms()
        if not forms:
            return self._release(self._held + text)
        if forms is not self._forms:
            self._learn(forms)
        window = self._tail + self._held + text
        start = len(self._tail)
        for form in forms:
            at = window.find(form, max(0, start - len(form) + 1))
            while at != -1:
                end = at + len(form)
                cut = max(at, start)  # what was let out already stays: only its end is redacted
                window = window[:cut] + REDACTED + window[end:]
                at = window.find(form, cut + len(REDACTED))
        pending = window[start:]
        for size in range(min(len(pending), self._longest - 1), HOLD_FROM - 1, -1):
            if pending[-size:] in self._starts:
                self._held = pending[-size:]
                return self._release(pending[:-size], keep_held=True)
        return self._release(pending)

    def finish(self) -> str:
        """What is still held back (the start of a form that never went on)."""
        return self._release(self._held)

    def _release(self, text: str, *, keep_held: bool = False) -> str:
        if not keep_held:
            self._held = ""
        if self._longest:
            self._tail = (self._tail + text)[-(self._longest - 1) :] if self._longest > 1 else ""
        return text

    def _learn(self, forms: tuple[str, ...]) -> None:
        self._forms = forms
        self._longest = max(len(form) for form in forms)
        self._starts = frozenset(
            form[:size] for form in forms for size in range(HOLD_FROM, len(form))
        )
