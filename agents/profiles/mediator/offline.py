"""The mediator's offline demo: the speaker is answered privately, and what was said to
everyone is summarised to everyone.

The agent node's step reads the turn's user record (its words, who said it, and whether it was
said in the shared space), never the prompt. The private reply echoes the message with its
lines kept and says plainly that a demo model does not mediate; a message said in the shared
space is also posted to everyone, quoted as said. Private words are never posted.
"""

from __future__ import annotations

from agents.offline import OfflineSteps, OfflineTurn, PlannedCall, Reply, cannot
from agents.shared_space.actions import POST_TO_SHARED, REPLY_PRIVATELY
from agents.shared_space.events import SHARED
from agents.shared_space.marks import unmarked
from agents.speaker import speaker_of


def _said(turn: OfflineTurn) -> tuple[str, str | None, bool]:
    """(words, speaker, said in the shared space) of the message this turn answers."""
    context = turn.context
    last = turn.last_user
    name = last.name if last is not None else None
    if context is None:
        return unmarked(turn.user_text), speaker_of(name), False
    people = tuple(getattr(context, "participants", ()) or ())
    try:
        record = context.store.get_message(context.user_message_id)
    except Exception:  # noqa: BLE001 (an unreadable record: the demo uses the turn's text)
        return unmarked(turn.user_text), context.sender or speaker_of(name, people), False
    shared = record.meta.get("visibility") == SHARED
    return record.content.strip(), context.sender or speaker_of(name, people), shared


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())


def agent(turn: OfflineTurn) -> Reply:
    """Deliver the private reply (and the shared summary); after delivery, say what was done."""
    results = turn.results
    if results:
        done = [
            f"- {r.name}: {r.content.strip()}" for r in results if r.name in (REPLY_PRIVATELY, POST_TO_SHARED)
        ]  # fmt: skip
        return Reply(text="Delivered:\n" + "\n".join(done) if done else cannot())
    words, speaker, shared = _said(turn)
    if not words or REPLY_PRIVATELY not in turn.tools:
        return Reply(text=cannot("mediate this conversation"))
    who = speaker or "you"
    private = f"{who}, I received your message:\n\n{_quoted(words)}\n\n" + cannot(
        "mediate", "I pass on what is said to everyone, and nothing said privately."
    )
    calls = [PlannedCall(REPLY_PRIVATELY, {"recipient": who, "content": private})]
    if shared and POST_TO_SHARED in turn.tools:
        calls.append(PlannedCall(POST_TO_SHARED, {"content": f"{who} said to everyone:\n\n{_quoted(words)}"}))  # fmt: skip
    return Reply(calls=tuple(calls))


STEPS: OfflineSteps = {"agent": agent}
"""Registered as the profile's ``offline``."""
