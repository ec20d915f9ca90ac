"""Shared pieces of the message-view benchmarks: host apps, generated Markdown, timing helpers.

Everything runs headless (``App.run_test``) at 120x40, the size the targets were set
for. Replies and histories are generated deterministically (seeded) and mix prose, lists and
code fences the way model answers do.
"""

from __future__ import annotations

import asyncio
import random
import re
import resource
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402
from textual.containers import VerticalScroll  # noqa: E402
from textual.widgets import Markdown  # noqa: E402

from weaver_tui.widgets.message_view import MessageItem, MessageView  # noqa: E402

SIZE = (120, 40)
WORDS = tuple(
    [
        "the",
        "model",
        "reads",
        "each",
        "file",
        "and",
        "explains",
        "why",
        "the",
        "tree",
        "keeps",
        "every",
        "version",
        "of",
        "a",
        "message",
        "so",
        "a",
        "user",
        "can",
        "fork",
        "edit",
        "and",
        "regenerate",
        "without",
        "losing",
        "anything",
        "while",
        "the",
        "view",
        "renders",
        "only",
        "what",
        "is",
        "visible",
        "and",
        "caches",
        "finished",
        "blocks",
        "once",
    ]
)
CODE_LINES = [
    "def walk(node):",
    "    for child in node.children:",
    "        yield from walk(child)",
    "    yield node",
    "result = [n.id for n in walk(root) if n.role == 'assistant']",
    "print(len(result))",
]


def markdown_reply(tokens: int, seed: int = 7) -> list[str]:
    """A Markdown reply cut into ``tokens`` pieces of about four characters, like model tokens."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < tokens * 4:
        kind = rng.random()
        if kind < 0.55:
            sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(25, 60)))
            block = f"{sentence.capitalize()}, with `inline code` and **bold** words.\n\n"
        elif kind < 0.8:
            items = [
                " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14)))
                for _ in range(rng.randint(3, 6))
            ]
            block = "".join(f"- {item}\n" for item in items) + "\n"
        elif kind < 0.9:
            block = f"## Step {len(parts)}\n\n"
        else:
            code = "\n".join(rng.choice(CODE_LINES) for _ in range(rng.randint(4, 12)))
            block = f"```python\n{code}\n```\n\n"
        parts.append(block)
        size += len(block)
    text = "".join(parts)
    pieces = re.findall(r"\s*\S{1,4}|\s+", text)
    return pieces[:tokens]


def history_items(count: int, seed: int = 11) -> list[MessageItem]:
    """A finished path of ``count`` messages: short questions, answers of 1-4 blocks."""
    rng = random.Random(seed)
    items = []
    for i in range(count):
        if i % 2 == 0:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 30)))
            items.append(MessageItem(id=f"m{i}", role="user", content=f"{words}? ({i})"))
        else:
            reply = "".join(markdown_reply(rng.randint(40, 220), seed=i))
            items.append(
                MessageItem(
                    id=f"m{i}",
                    role="assistant",
                    content=f"{reply}\n\nEnd of answer {i}.",
                    badge="assistant · offline · 0.4s",
                )
            )
    return items


class ViewApp(App[None]):
    """A host with one ``MessageView`` and a key whose handler stamps the time it ran."""

    # A function key: the message view sends printable keys on to a composer.
    BINDINGS = [("f9", "stamp", "Stamp")]  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[float] = []
        self.painted: list[float] = []

    def compose(self) -> ComposeResult:
        yield MessageView()

    def action_stamp(self) -> None:
        """Stamp the handler, then the end of the next screen refresh (the answer painted)."""
        self.stamps.append(time.perf_counter())
        self.call_after_refresh(lambda: self.painted.append(time.perf_counter()))

    @property
    def view(self) -> MessageView:
        return self.query_one(MessageView)


class MarkdownApp(App[None]):
    """The baseline: Textual's own ``Markdown`` widgets in a scrolling container."""

    # A function key: the message view sends printable keys on to a composer.
    BINDINGS = [("f9", "stamp", "Stamp")]  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[float] = []
        self.painted: list[float] = []

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="chat")

    def action_stamp(self) -> None:
        """Stamp the handler, then the end of the next screen refresh (the answer painted)."""
        self.stamps.append(time.perf_counter())
        self.call_after_refresh(lambda: self.painted.append(time.perf_counter()))

    async def add_markdown(self, text: str = "") -> Markdown:
        widget = Markdown(text)
        await self.query_one("#chat", VerticalScroll).mount(widget)
        return widget


async def paced(tokens: list[str], rate: float, write: Callable[[str], Awaitable[None]]) -> float:
    """Send ``tokens`` at ``rate`` per second (catching up in batches); return the last due time."""
    start = time.perf_counter()
    for i, token in enumerate(tokens):
        due = start + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        await write(token)
    return start + (len(tokens) - 1) / rate


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def peak_rss_mib() -> float:
    """This process's peak resident set size in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(name: str, figure: str, baseline: str, ratio: float, target: str, ok: bool) -> None:
    """One result line block: figure, baseline from the same run, ratio, target."""
    print(f"{name}")
    print(f"  figure:   {figure}")
    print(f"  baseline: {baseline}")
    print(f"  ratio:    {ratio:.2f}x")
    print(f"  target:   {target} -> {'MET' if ok else 'NOT MET'}")
