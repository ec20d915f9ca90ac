"""A second process on the same data, through the factories of :mod:`storage.backend`, driven
by the tests of turn locks and writers across processes (on the SQLite file and on a server).

Run as ``python -m tests.storage.backend_child MODE WHERE CONVERSATION [...]``: ``WHERE`` is a
PostgreSQL URL or the SQLite file's path. It prints one JSON line per step.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from storage.backend import StorageTarget, Where, open_store, turn_locks


def _say(**data: object) -> None:
    print(json.dumps(data), flush=True)


def _where(text: str) -> Where:
    return StorageTarget(Path("."), text) if "://" in text else Path(text)


def turn(where: Where, conversation_id: str) -> None:
    """Hold the conversation's turn, store a question and start a reply, and stay there
    (streaming, as far as anyone can tell) until stdin closes or the process is killed."""
    store = open_store(where)
    with turn_locks(where).hold(conversation_id):
        user = store.add_message(conversation_id, "user", "a long question", None)
        reply = store.add_message(
            conversation_id, "assistant", "", user.id, {"status": "streaming"}
        )
        store.update_message(reply.id, content="The answer begins")
        _say(held=True, reply=reply.id)
        sys.stdin.read()
    store.close()


def fork(where: Where, conversation_id: str) -> None:
    """Stream a reply on a fork of its own (no turn lock: forks never wait for one) and stay
    there until stdin closes or the process is killed."""
    store = open_store(where)
    user = store.add_message(conversation_id, "user", "a side question", None)
    reply = store.add_message(conversation_id, "assistant", "", user.id, {"status": "streaming"})
    store.update_message(reply.id, content="A side answer begins")
    _say(held=True, reply=reply.id)
    sys.stdin.read()
    store.close()


def siblings(where: Where, conversation_id: str, parent_id: str, count: int) -> None:
    """Add ``count`` replies under ``parent_id`` (racing another process doing the same)."""
    store = open_store(where)
    _say(ready=True)
    sys.stdin.readline()  # both writers start together
    for index in range(count):
        store.add_message(conversation_id, "assistant", f"reply {index}", parent_id)
    _say(done=count)
    store.close()


if __name__ == "__main__":
    mode, where_text, conversation = sys.argv[1:4]
    if mode == "turn":
        turn(_where(where_text), conversation)
    elif mode == "fork":
        fork(_where(where_text), conversation)
    elif mode == "siblings":
        siblings(_where(where_text), conversation, sys.argv[4], int(sys.argv[5]))
    else:
        raise SystemExit(f"unknown mode {mode}")
