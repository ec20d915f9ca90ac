"""How ``ask`` prints a turn's events: answer text to stdout, tool and stage lines to stderr."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TextIO

from storage.printable import printable

if TYPE_CHECKING:
    from agents.runtime.events import (
        AnswerDraft,
        NodeStatus,
        RunError,
        RunEvent,
        RunFinished,
        TokenDelta,
        ToolFinished,
        ToolStarted,
        TurnStarted,
        Usage,
    )


THINKING_PREFIX = "thinking: "


class EventPrinter:
    """Prints a turn's events: answer text to ``out`` as it arrives, the rest to ``err``.

    A reply written as a draft that a check settles later (``AnswerDraft``) is not answer text
    yet: ``out`` gets the answer once it is settled, whole; ``err`` says a draft is being
    written and how the check went, so a rejected draft never reads as the answer.

    A thinking model's reasoning is printed only with ``show_thinking``: to ``err``, every line
    after ``thinking: `` (so it reads apart from the answer and from tool lines), as it streams.
    """

    def __init__(self, out: TextIO, err: TextIO, *, show_thinking: bool = False) -> None:
        self.out, self.err = out, err
        self.show_thinking = show_thinking
        self.thinking_line_open = False
        """A ``thinking:`` line is being written to ``err`` (it ends before any other output)."""
        self.reply_id: str | None = None
        self.at_line_start = True
        self.error: str | None = None
        self.cancelled = False
        self.review_waiting = False
        self.usage: Usage | None = None
        """The turn's usage, summed over its model calls, when the provider reported it."""
        """The turn ended paused for the user (the ide-helper's patch review)."""
        self.drafting: set[str] = set()
        """Replies streaming as a draft: their text is held back until settled."""

    def show(self, event: RunEvent) -> None:
        from agents.runtime import events as ev

        if isinstance(event, ev.ReasoningDelta):
            if self.show_thinking:
                self._think(event.text)
            return
        self._end_thinking()
        if isinstance(event, ev.TokenDelta) and event.message_id in self.drafting:
            return
        if isinstance(event, ev.AnswerDraft):
            self._show_draft(event)
        elif isinstance(event, ev.TurnStarted | ev.TokenDelta):
            self._show_text(event)
        elif isinstance(event, ev.ToolStarted | ev.ToolFinished | ev.NodeStatus):
            self._show_step(event)
        elif isinstance(event, ev.RunError | ev.RunFinished):
            self._show_end(event)

    def _show_text(self, event: TurnStarted | TokenDelta) -> None:
        from agents.runtime import events as ev

        if isinstance(event, ev.TurnStarted):
            if event.reply.content:
                self.reply_id = (
                    event.reply.id
                )  # a continued reply starts with the text it goes on from
                self._write_out(event.reply.content)
            return
        if self.reply_id is not None and event.message_id != self.reply_id:
            self._write_out("\n" if self.at_line_start else "\n\n")
        self.reply_id = event.message_id
        self._write_out(event.text)

    def _show_draft(self, event: AnswerDraft) -> None:
        if event.stage == "settled":
            self.drafting.discard(event.message_id)
            return
        self.drafting.add(event.message_id)
        lines = {
            "draft": "writing a draft (the answer is printed once it is checked)",
            "rejected": "draft rejected" + (f": {event.note}" if event.note else ""),
            "checked": "draft checked",
            "unchecked": "draft unchecked" + (f": {event.note}" if event.note else ""),
        }
        self._line(f"· answer: {lines[event.stage]}")

    def _show_step(self, event: ToolStarted | ToolFinished | NodeStatus) -> None:
        from agents.runtime import events as ev

        if isinstance(event, ev.ToolStarted):
            self._line(f"→ {event.name}({_short_args(event.args)})")
        elif isinstance(event, ev.ToolFinished):
            if event.error:
                self._line(
                    f"✗ {event.name} failed after {event.duration_ms:.0f} ms: {_first_line(event.error)}"
                )
            else:
                self._line(f"✓ {event.name} ({event.duration_ms:.0f} ms)")
        else:
            self._line(f"· {event.node}: {event.text}")

    def _show_end(self, event: RunError | RunFinished) -> None:
        from agents.runtime import events as ev

        self._end_output()
        if isinstance(event, ev.RunError):
            self.error = event.error.user_message
            return
        self.cancelled = event.status == "cancelled"
        self.usage = event.usage
        self.review_waiting = event.paused
        if self.cancelled:
            self._line("(reply cancelled; the partial reply is kept)")

    def _think(self, text: str) -> None:
        if not self.thinking_line_open:
            self._end_output()
            self.err.write(THINKING_PREFIX)
        lines = printable(text).split("\n")
        self.err.write(("\n" + THINKING_PREFIX).join(lines))
        self.err.flush()
        self.thinking_line_open = True

    def _end_thinking(self) -> None:
        if self.thinking_line_open:
            self.err.write("\n")
            self.err.flush()
            self.thinking_line_open = False

    def _write_out(self, text: str) -> None:
        self.out.write(printable(text))
        self.out.flush()
        self.at_line_start = text.endswith("\n")

    def _end_output(self) -> None:
        if not self.at_line_start:
            self._write_out("\n")

    def _line(self, text: str) -> None:
        self._end_output()
        print(printable(text), file=self.err, flush=True)


def _short_args(args: dict[str, Any], limit: int = 80) -> str:
    text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text
