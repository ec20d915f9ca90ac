"""A second process writing to a conversation database, driven by the crash and concurrency tests.

Run as ``python -m tests.storage.child_writer MODE DB CONVERSATION [...]`` from the repository
root. It prints one JSON line per step so the test knows how far it got.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore


def _say(**data: object) -> None:
    print(json.dumps(data), flush=True)


def stream(db: Path, conversation_id: str, hold_after: int) -> None:
    """Store a user message and stream a reply into it, one flush per token, forever.

    With ``hold_after`` > 0, stop flushing after that many tokens and wait for stdin to close
    (a live process that is still "streaming").
    """
    store = SqliteConversationStore(db)
    user = store.add_message(conversation_id, "user", "tell me a long story", None)
    reply = store.add_message(
        conversation_id, "assistant", "", user.id, {"status": "streaming", "model": "offline"}
    )
    _say(user=user.id, reply=reply.id)
    text = ""
    for i in range(1_000_000):
        text += f"token{i} "
        store.update_message(reply.id, content=text)
        _say(flushed=i + 1)
        if hold_after and i + 1 >= hold_after:
            sys.stdin.read()
            return
        time.sleep(0.001)


def append(db: Path, conversation_id: str, shared_parent: str, count: int, tag: str) -> None:
    """After "go" on stdin, append ``count`` records: half as new versions under a shared parent
    (contended version numbers), half extending this writer's own chain, each chain record
    then updated once (a flush)."""
    store = SqliteConversationStore(db, busy_timeout_s=30)
    _say(ready=True)
    sys.stdin.readline()
    own: str | None = shared_parent
    for i in range(count):
        if i % 2:
            store.add_message(conversation_id, "assistant", f"{tag} version {i}", shared_parent)
        else:
            record = store.add_message(
                conversation_id, "user", f"{tag} chain {i}", own, {"status": "streaming"}
            )
            store.update_message(
                record.id, content=f"{tag} chain {i} done", status=MessageStatus.COMPLETE
            )
            own = record.id
    store.close()
    _say(done=count)


def main(argv: list[str]) -> None:
    mode, db, conversation_id, *rest = argv
    if mode == "stream":
        stream(Path(db), conversation_id, int(rest[0]) if rest else 0)
    elif mode == "append":
        append(Path(db), conversation_id, rest[0], int(rest[1]), rest[2])
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
