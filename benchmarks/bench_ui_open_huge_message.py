"""A conversation whose last message is huge (200 KB of Markdown-like text by default), for
``benchmarks/compare``'s "reopen a 200 KB message" row: the time from the command to the first
frame that shows the message's end (``HUGE_END``).

    python benchmarks/bench_ui_open_huge_message.py DATA_DIR [KIB]   # seeds DATA_DIR
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

HUGE_ID = "huge"
"""The conversation's id (``--conversation huge``)."""
HUGE_END = "ZQXHUGEEND"
"""The last word of the huge message."""


def huge_text(kib: int, seed: int = 11) -> str:
    """About ``kib`` KiB of what a long reply holds: headings, paragraphs with inline marks,
    lists, tables and code fences, ending with a paragraph whose last word is ``HUGE_END``."""
    rng = random.Random(seed)
    words = ("the", "model", "reads", "each", "file", "and", "writes", "a", "short", "note")
    parts: list[str] = []
    size = 0
    n = 0
    while size < kib * 1024:
        n += 1
        kind = n % 5
        if kind == 0:
            block = f"## Section {n}\n"
        elif kind == 1:
            text = " ".join(rng.choice(words) for _ in range(60))
            block = f"Paragraph {n}: {text} with *emphasis*, `code` and **strong** words.\n"
        elif kind == 2:
            block = "".join(f"- item {n}.{i}: {rng.choice(words)}\n" for i in range(6))
        elif kind == 3:
            body = "".join(f"    value_{i} = compute({i}, {n})\n" for i in range(8))
            block = f"```python\ndef step_{n}():\n{body}```\n"
        else:
            rows = "".join(f"| {i} | {rng.choice(words)} |\n" for i in range(4))
            block = f"| n | word |\n|---|---|\n{rows}"
        parts.append(block)
        size += len(block) + 1
    parts.append(f"The end of the long message: {HUGE_END}\n")
    return "\n".join(parts)


def seed_huge(data_dir: Path, kib: int = 200) -> None:
    """A conversation of a question, a short answer, a follow-up and the huge answer."""
    from storage.models import Conversation, MessageRecord
    from storage.sqlite_store import SqliteConversationStore

    start = datetime(2026, 1, 1, tzinfo=UTC)
    texts = [("user", "Summarise the project."), ("assistant", "It is a chat app.")]
    texts += [("user", "Now in full detail, please."), ("assistant", huge_text(kib))]
    records: list[MessageRecord] = []
    for n, (role, text) in enumerate(texts):
        parent = records[-1] if records else None
        records.append(
            MessageRecord(
                f"h{n}",
                HUGE_ID,
                role,  # type: ignore[arg-type]
                text,
                parent.id if parent else None,
                n,
                1,
                start + timedelta(seconds=n),
                {"status": "complete"},
            )
        )
    conversation = Conversation(
        HUGE_ID, "Huge message", "paper-pilot", start, start, {"active_leaf": records[-1].id}
    )
    choices = {(r.parent_id or ""): r.id for r in records}
    data_dir.mkdir(parents=True, exist_ok=True)
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        store.import_tree(conversation, records, choices)


if __name__ == "__main__":
    seed_huge(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 200)
