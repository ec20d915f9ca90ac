"""Messages written while a reply is being written: held in order, sent one turn each.

Enter during a turn does not refuse the message: it waits here, shown under the running reply,
and is sent when the turn ends, in the order written, one turn each. A turn the user stopped
(or one that failed) pauses the queue: nothing is sent on its own after a stop, the user
decides (sending a message of their own resumes it; each held message can be taken back into
the composer or dropped). This is the app's side of what ACP does with a prompt sent during a
turn (it waits for the running one), except that a stop keeps the queue instead of ending it.

The guarantee, for any sequence of holds, turn ends, takes and drops: every held message leaves
the queue exactly once (sent, taken back, or dropped), messages are sent in the order held,
at most one per ended turn, and none is sent after a turn that did not end complete until the
user resumes.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

PAUSED_SENTENCE = "Paused by the stop: send a message to go on; select one to edit it."
WAITING_SENTENCE = "Sent after this reply, one turn each; select to edit, Delete drops."


@dataclass(frozen=True, slots=True)
class HeldPrompt:
    """One message waiting for its turn; ``key`` names it while it waits."""

    key: int
    text: str


class PromptQueue:
    """The messages held while a reply is written, in order."""

    def __init__(self) -> None:
        self._held: list[HeldPrompt] = []
        self._keys = count(1)
        self.paused = False
        """A turn ended stopped or failed: nothing is sent until :meth:`resume`."""

    @property
    def held(self) -> tuple[HeldPrompt, ...]:
        return tuple(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def hold(self, text: str, *, first: bool = False) -> HeldPrompt:
        """Keep ``text`` for a later turn (at the end; at the front with ``first``)."""
        prompt = HeldPrompt(next(self._keys), text)
        if first:
            self._held.insert(0, prompt)
        else:
            self._held.append(prompt)
        return prompt

    def take(self, key: int) -> HeldPrompt | None:
        """Take the message ``key`` out of the queue (to edit or drop it); ``None`` if gone."""
        for index, prompt in enumerate(self._held):
            if prompt.key == key:
                return self._held.pop(index)
        return None

    def turn_ended(self, *, complete: bool) -> HeldPrompt | None:
        """A turn ended: the next message to send now (taken out of the queue), or ``None``
        (nothing held, or the queue is paused; a turn that did not end complete pauses it)."""
        if not complete:
            self.paused = bool(self._held)
            return None
        if self.paused or not self._held:
            return None
        return self._held.pop(0)

    def resume(self) -> None:
        """The user sent a message of their own: the held ones follow it again."""
        self.paused = False

    @property
    def sentence(self) -> str:
        """What the strip says about the held messages."""
        return PAUSED_SENTENCE if self.paused else WAITING_SENTENCE
