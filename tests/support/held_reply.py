"""A reply that is still streaming when the test acts: held by the fake server, not paced.

The first words go out at once; each later word only when the test calls
``FakeOpenAI.release()``. However slow the machine, the reply is running (and never ends by
itself) until the test has done what it does mid-reply.
"""

from __future__ import annotations

from tests.support.openai_script import Reply


def running_reply(words: int = 2000, sent_at_once: int = 30) -> Reply:
    """``word0 word1 ...`` (``words`` of them); the stream holds before every word from
    ``sent_at_once`` on, one ``release()`` per word."""
    tokens = [f"word{i} " for i in range(words)]
    return Reply.from_tokens(tokens, holds=tuple(range(sent_at_once, words)))
