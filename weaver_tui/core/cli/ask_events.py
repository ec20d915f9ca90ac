"""Running one turn for ``ask`` and printing its events: the reply on stdout (or JSON lines),
tool and stage lines on stderr, ending with ``usage: ...`` and ``conversation: ID``; a stop
signal cancels the turn as Ctrl+C does (the partial reply is marked). A new message and a
regenerated reply (``ask "/regenerate"``) both run here."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from weaver_tui.core.cli.errors import EXIT_INTERRUPTED, CliError
from weaver_tui.core.cli.event_printer import EventPrinter
from weaver_tui.core.cli.json_events import JsonEventPrinter

if TYPE_CHECKING:
    from weaver_tui.core.services import Services


async def run_events(
    services: Services,
    args: argparse.Namespace,
    turn: Callable[[Any, asyncio.Event], AsyncIterator[Any]],
    conversation_id: str | None,
    profile: str,
) -> int:
    """Run the turn ``turn(runtime, cancel)`` yields the events of and print them (a stop
    signal cancels it as Ctrl+C does: the partial reply is marked; ``--json`` adds the
    ``profile``'s reply trace, stage by stage); the exit status."""
    from agents.profile_registry import get_traits
    from agents.runtime.events import MessageStored

    cancel = asyncio.Event()
    loop = asyncio.get_running_loop()
    stop_signals = [
        signal.SIGINT,
        *(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)),
    ]
    for stop in stop_signals:  # each ends the turn as Ctrl+C does: the partial reply is marked
        with suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(stop, cancel.set)
    printer: EventPrinter | JsonEventPrinter = (
        JsonEventPrinter(sys.stdout, quiet=args.quiet, stages_of=get_traits(profile).reply_stages)
        if args.json_events
        else EventPrinter(sys.stdout, sys.stderr, show_thinking=args.show_thinking)
    )
    async with services.runtime() as runtime:
        async for event in turn(runtime, cancel):
            if isinstance(event, MessageStored):
                conversation_id = event.conversation.id
            printer.show(event)
    for stop in stop_signals:
        with suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(stop)
    if isinstance(printer, JsonEventPrinter):
        printer.finish()
    if printer.error is not None:
        where = f" (conversation {conversation_id})" if conversation_id else ""
        raise CliError(f"{printer.error}{where}")
    if printer.review_waiting:
        print(
            "The proposed patch waits for your review: open the conversation in the app "
            f"(weaver-tui --conversation {conversation_id}) and press F4 to accept or reject it.",
            file=sys.stderr,
        )
    if printer.usage is not None:  # the last line stays the conversation, read by scripts
        from agents.runtime.usage_tally import usage_line

        print(f"usage: {usage_line(printer.usage)}", file=sys.stderr)
    print(f"conversation: {conversation_id}", file=sys.stderr)
    return EXIT_INTERRUPTED if printer.cancelled else 0
