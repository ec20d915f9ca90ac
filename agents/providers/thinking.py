"""Separating a model's inline reasoning (``<think>...</think>``) from its answer, as it streams.

Some models write their reasoning into the answer text itself, between ``<think>`` and
``</think>``, before the answer. :class:`ThinkSplitter` is fed the text piece by piece and
hands back what is reasoning and what is answer so far. Only a block at the very start of the
reply (after optional whitespace) is reasoning: a ``<think>`` later in an answer is the model
talking about the tag (in prose or a code block) and stays answer text. The tags may arrive
split across pieces ("<thi" + "nk>"): text that may still become a tag is held back until the
next piece decides it, and the whitespace between ``</think>`` and the answer is dropped. A
reply that ends inside the block (the model stopped while thinking) keeps everything after
``<think>`` as reasoning.
"""

from __future__ import annotations

REASONING_KEY = "reasoning_content"
"""Where a streamed or finished AI message carries reasoning a server sent apart from the
content (``additional_kwargs[REASONING_KEY]``, see :mod:`agents.providers.openai_reasoning`)."""
OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"

_START, _THINKING, _AFTER, _ANSWER = "start", "thinking", "after", "answer"


class ThinkSplitter:
    """Incremental splitter of one reply: ``feed`` each piece, ``finish`` at the end.

    Both return ``(reasoning, answer)``: the text of each kind that is certain by then (either
    may be empty). Once the reply is known to be plain answer, pieces pass through untouched.
    """

    __slots__ = ("_held", "_state")

    def __init__(self) -> None:
        self._state = _START
        self._held = ""

    @property
    def thinking(self) -> bool:
        """Whether the reply is inside its ``<think>`` block now."""
        return self._state == _THINKING

    def feed(self, text: str) -> tuple[str, str]:
        if self._state == _ANSWER:
            return "", text
        if self._state == _AFTER:
            # The whitespace between ``</think>`` and the answer is neither.
            text = text.lstrip()
            if text:
                self._state = _ANSWER
            return "", text
        self._held += text
        if self._state == _START:
            return self._at_start()
        return self._in_block()

    def finish(self) -> tuple[str, str]:
        """The reply ended: whatever is held back is what it looked like (unclosed reasoning
        stays reasoning; a partial opening tag was answer text)."""
        held, self._held = self._held, ""
        state, self._state = self._state, _ANSWER
        if state == _THINKING:
            return held, ""
        return "", held

    def _at_start(self) -> tuple[str, str]:
        stripped = self._held.lstrip()
        if stripped.startswith(OPEN_TAG):
            self._state = _THINKING
            self._held = stripped[len(OPEN_TAG) :]
            return self._in_block()
        if OPEN_TAG.startswith(stripped):
            return "", ""  # only whitespace, or a tag not yet complete: wait for more
        self._state = _ANSWER
        held, self._held = self._held, ""
        return "", held

    def _in_block(self) -> tuple[str, str]:
        held = self._held
        end = held.find(CLOSE_TAG)
        if end >= 0:
            self._held = ""
            answer = held[end + len(CLOSE_TAG) :].lstrip()
            self._state = _ANSWER if answer else _AFTER
            return held[:end], answer
        keep = _partial_suffix(held, CLOSE_TAG)
        self._held = held[len(held) - keep :] if keep else ""
        return held[: len(held) - keep], ""


def _partial_suffix(text: str, tag: str) -> int:
    """The length of the longest end of ``text`` that is a proper beginning of ``tag``."""
    for size in range(min(len(text), len(tag) - 1), 0, -1):
        if text.endswith(tag[:size]):
            return size
    return 0


def split_thinking(text: str) -> tuple[str, str]:
    """``(reasoning, answer)`` of a whole reply, as :class:`ThinkSplitter` splits its stream."""
    splitter = ThinkSplitter()
    reasoning, answer = splitter.feed(text)
    more_reasoning, more_answer = splitter.finish()
    return reasoning + more_reasoning, answer + more_answer
