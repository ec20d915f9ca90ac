"""Messages written while a reply is being written: held in order, sent one turn each.

Enter during a turn does not refuse the message: it waits here, shown under the running reply,
and is sent when the turn ends, in the order written, one turn each. A turn the user stopped
(or one that failed) pauses the queue: nothing is sent on its own after a stop, the user
decides (sending a message of their own resumes it; each held message can be taken back into
the composer or dropped). This is the app's side of what ACP does with a prompt sent during a
turn (it waits for the running one), except that a stop keeps the queue instead of ending it.

Each held message belongs to the conversation it was written in (``None`` while that one is
not stored yet: it is the conversation of the turn that ends next, which the chat does not
leave while a reply runs). Only that conversation's turns send it, and only its own messages
resume it; in another conversation the strip shows only that one's.

The guarantee, for any sequence of holds, turn ends, takes and resumes in any conversations:
every held message leaves the queue exactly once (sent, taken back, or dropped), messages of
a conversation are sent in the order held, at most one per ended turn and only by a turn of
their own conversation, and none after a turn there that did not end complete until the user
sends there again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import count

PAUSED_SENTENCE = "Paused by the stop: send a message to go on; select one to edit it."
WAITING_SENTENCE = "Sent after this reply, one turn each; select to edit, Delete drops."


@dataclass(frozen=True, slots=True)
class HeldPrompt:
    """One message waiting for its turn; ``key`` names it while it waits, ``conversation`` is
    where it was written (``None``: the one whose turn ends next)."""

    key: int
    text: str
    conversation: str | None = None


class PromptQueue:
    """The messages held while a reply is written, in order."""

    def __init__(self) -> None:
        self._held: list[HeldPrompt] = []
        self._keys = count(1)
        self._paused: set[str | None] = set()

    def held_in(self, conversation: str | None) -> tuple[HeldPrompt, ...]:
        """The messages waiting in ``conversation`` (with those not bound yet), in order."""
        return tuple(p for p in self._held if p.conversation in (conversation, None))

    @property
    def held(self) -> tuple[HeldPrompt, ...]:
        return tuple(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def paused(self, conversation: str | None) -> bool:
        """Whether a stop in ``conversation`` keeps its messages from being sent."""
        return conversation in self._paused

    def hold(
        self, text: str, *, conversation: str | None = None, first: bool = False
    ) -> HeldPrompt:
        """Keep ``text`` for a later turn of ``conversation`` (at the end; at the front with
        ``first``)."""
        prompt = HeldPrompt(next(self._keys), text, conversation)
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

    def turn_ended(self, conversation: str | None, *, complete: bool) -> HeldPrompt | None:
        """A turn of ``conversation`` ended: the next of its messages to send now (taken out
        of the queue), or ``None`` (none held there, or paused there; a turn that did not end
        complete pauses it). Messages not bound yet are bound to ``conversation``."""
        self._held = [
            replace(p, conversation=conversation) if p.conversation is None else p
            for p in self._held
        ]
        mine = [p for p in self._held if p.conversation == conversation]
        if not complete:
            if mine:
                self._paused.add(conversation)
            return None
        if conversation in self._paused or not mine:
            return None
        self._held.remove(mine[0])
        return mine[0]

    def resume(self, conversation: str | None) -> None:
        """The user sent a message of their own in ``conversation``: its held messages follow
        it again."""
        self._paused.discard(conversation)

    def sentence(self, conversation: str | None) -> str:
        """What the strip says about ``conversation``'s held messages."""
        return PAUSED_SENTENCE if self.paused(conversation) else WAITING_SENTENCE
