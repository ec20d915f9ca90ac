"""``weaver-tui space demo``: the couple's mediator demo played in the terminal, on the
configured model (the offline one when none is).

It opens a new space, plays every turn of the demo (the script the app's "Play mediator demo"
plays) through the runtime, and prints, as it happens, who spoke and to whom, what the
mediator delivered to whom, each statement version, and the participants' answers (the demo
gives them as the participants would at their seats). A turn whose deliveries differ from the
script's is named, with what was expected and what happened; the run still goes on (a real
model may mediate differently), but a turn that fails stops it. It prints the conversation's
id first and last, so the space can be opened (``space open --conversation ID``) or recorded
(``space record --conversation ID``).
"""

from __future__ import annotations

import asyncio
import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from storage.printable import printable
from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError

if TYPE_CHECKING:
    from weaver_tui.core.services import Services


def demo_module() -> ModuleType:
    """The demo of the profile that seats several people (its traits name the module)."""
    from agents.profile_registry import list_traits

    for _name, traits in list_traits():
        if traits.seats and traits.demo:
            return importlib.import_module(traits.demo)
    raise CliError("no profile with seats declares a demo", EXIT_CONFIG)


def _one_line(text: str) -> str:
    return " ".join(printable(text).split())


class DemoPrinter:
    """Prints each turn's events as they stream (see the module)."""

    def __init__(self, out: TextIO, demo: ModuleType) -> None:
        self.out = out
        self.demo = demo
        self.turns = len(demo.DEMO_TURNS)
        self.args: dict[str, dict[str, Any]] = {}
        self.events: list[Any] = []
        """The events of the turn being played."""

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def event(self, index: int, turn: Any, event: Any) -> None:
        from agents.runtime.events import (
            MessageStored,
            RunError,
            RunFinished,
            ToolFinished,
            ToolStarted,
        )

        self.events.append(event)
        if isinstance(event, MessageStored):
            self.events = [event]
            where = "to everyone" if turn.channel == "shared" else "to the mediator, privately"
            self.say(f"\nTurn {index + 1}/{self.turns}: {turn.sender}, {where}:")
            self.say(f"  {_one_line(turn.content)}")
        elif isinstance(event, ToolStarted):
            self.args[event.call_id] = event.args
        elif isinstance(event, ToolFinished):
            self.say(self._delivery(event))
        elif isinstance(event, RunError):
            self.say(f"  ! The turn failed: {event.error.user_message}")
        elif isinstance(event, RunFinished):
            self._ended(index, turn)

    def _ended(self, index: int, turn: Any) -> None:
        """Say where the turn differs from the script, then the answers given after it."""
        done = self.demo.deliveries(self.events)
        if tuple(done) != turn.expected:
            expected = ", ".join(f"{a.tool} to {a.recipient}" for a in turn.expected)
            got = ", ".join(f"{a.tool} to {a.recipient}" for a in done) or "nothing"
            self.say(
                f"  ! Turn {index + 1} did not go as the demo expects: it expected {expected}; "
                f"the mediator did {got}."
            )
        for answer in turn.answers_after:
            critique = f' ("{_one_line(answer.critique)}", private to {answer.participant})'
            self.say(
                f"  Then {answer.participant} answers the open statement at their seat: "
                f"{answer.answer}{critique if answer.critique else ''}"
            )

    def _delivery(self, event: Any) -> str:
        args = self.args.get(event.call_id, {})
        if event.error:
            return f"  ! {event.name} was not done: {_one_line(event.error)}"
        if event.name == "reply_privately":
            to = f"{args.get('recipient', '?')}, privately"
            return f"  Mediator to {to}: {_one_line(str(args.get('content', '')))}"
        if event.name == "post_to_shared":
            return f"  Mediator to everyone: {_one_line(str(args.get('content', '')))}"
        if "statement" in event.name:
            return f"  {_one_line(event.output)}\n    {_one_line(str(args.get('text')))}"
        return f"  Mediator used {event.name}: {_one_line(event.output)}"


def play(services: Services, out: TextIO) -> int:
    """Play the demo; 0 when every turn completed (as scripted or not), else 1."""
    return asyncio.run(_play(services, out))


async def _play(services: Services, out: TextIO) -> int:
    from agents.shared_space.statements import statement_board

    demo = demo_module()
    store = services.store
    conversation = demo.create_demo_space(store)
    printer = DemoPrinter(out, demo)
    model = await services.amodel()
    printer.say(f"Conversation {conversation.id}: {printable(conversation.title)}")
    printer.say(f"Model: {printable(model.model_name)}")
    async with services.runtime() as runtime:
        played = await demo.play_demo(runtime, model, conversation.id, on_event=printer.event)
    for result in played:
        for miss in result.misses:
            printer.say(f"! After turn {result.index + 1}: {miss}.")
    for statement in statement_board(store, conversation.id, "shared"):
        state = (
            f"agreed at version {statement.agreed.number}"
            if statement.agreed
            else f"open at version {statement.latest.number}"
        )
        printer.say(f"\n{statement.key} ({_one_line(statement.topic)}): {state}.")
    failed = any(r.error is not None for r in played)
    printer.say(
        f"\nConversation {conversation.id}"
        + (" (stopped at a failed turn)" if failed else "")
        + f"; write its record with: weaver-tui space record --conversation {conversation.id}"
    )
    return 1 if failed else 0
