"""``weaver-tui space``: serve a mediator conversation to its participants, one seat each.

``space open --participants Alex,Sam [--conversation ID]`` prints ``NAME: URL`` per seat and
serves until Ctrl+C, answering the seats' messages in this process (it has the model);
``space close --conversation ID`` revokes the space's links; ``space join URL`` takes a seat
in a terminal on any machine that reaches the host (:mod:`weaver_tui.core.cli.space_join`);
``space demo`` plays the couple's demo in the terminal (:mod:`weaver_tui.core.cli.space_demo`);
``space record --conversation ID [--participant NAME] [--output FILE]`` writes what was
agreed as Markdown (a participant's own copy adds their private exchange);
``space seat`` is the app a
seat's connection runs (started by ``space open``, given only the participant, the
conversation and the data folder).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError
from weaver_tui.core.seat_registry import DEFAULT_PER_ADDRESS, DEFAULT_PER_SPACE

if TYPE_CHECKING:
    from storage.backend import AnySeatBook
    from storage.models import Conversation
    from storage.seats import Seat
    from storage.store import ConversationStore
    from weaver_tui.core.cli.terminal_apps import TerminalApps
    from weaver_tui.core.services import Services

MAX_MESSAGE = 2_000_000
"""The default of the ``max_message_bytes`` setting (a seat's limit unless the host's differs)."""


def add_space_parser(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    space = verbs.add_parser("space", help="serve a mediator conversation, one seat per person")
    actions = space.add_subparsers(dest="space_action", metavar="ACTION", required=True)
    opening = actions.add_parser("open", help="print one link per participant and serve them")
    opening.add_argument(
        "--participants",
        help="comma-separated names; with --conversation, seated beside those who have "
        "spoken in it",
    )
    opening.add_argument("--conversation", dest="space_conversation", metavar="ID")
    opening.add_argument("--host", default="127.0.0.1", help="address (default: local only)")
    opening.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    opening.add_argument(
        "--max-seat-apps",
        type=_at_least_one,
        default=DEFAULT_PER_SPACE,
        help=f"seats with a running app at once (default: {DEFAULT_PER_SPACE}); one per seat",
    )
    opening.add_argument(
        "--max-connections-per-address",
        type=_at_least_one,
        default=DEFAULT_PER_ADDRESS,
        help=f"connections one address may hold at once (default: {DEFAULT_PER_ADDRESS})",
    )
    closing = actions.add_parser("close", help="revoke every link of a space")
    closing.add_argument("--conversation", dest="space_conversation", metavar="ID", required=True)
    joining = actions.add_parser("join", help="take your seat in this terminal, from its link")
    joining.add_argument(
        "url",
        metavar="URL",
        nargs="?",
        help="the line the host sent you; leave it out (or give -) to paste it or pipe it in "
        "instead, which keeps it from other local users: a link given here is cleared from "
        "this process's command line once read, but other users of this machine can read it "
        "while Python starts",
    )
    actions.add_parser("demo", help="play the couple's mediator demo here, turn by turn")
    record = actions.add_parser("record", help="write what was agreed, as Markdown")
    record.add_argument("--conversation", dest="space_conversation", metavar="ID", required=True)
    record.add_argument("--participant", help="their own copy: adds their private exchange")
    record.add_argument("--output", type=Path, help="the file (default: a name in this folder)")
    seat = actions.add_parser("seat", help="the app of one seat (started by space open)")
    seat.add_argument("--data-dir", type=Path, required=True)
    seat.add_argument("--conversation", dest="space_conversation", metavar="ID", required=True)
    seat.add_argument("--participant", required=True)
    seat.add_argument("--max-message-bytes", type=_at_least_one, default=MAX_MESSAGE)


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value


def run_space_verb(
    args: argparse.Namespace, services: Services | None, apps: TerminalApps | None
) -> int:
    if args.space_action == "seat":
        if apps is None:
            raise CliError("a seat needs the Textual app: start it with `weaver-tui space seat`")
        return apps.seat(args)
    if args.space_action == "join":
        from weaver_tui.core.cli.space_join import join_space

        return join_space(args.url)
    assert services is not None
    if args.space_action == "close":
        return close_space(services, args.space_conversation)
    if args.space_action == "record":
        return write_record(services, args)
    if args.space_action == "demo":
        from weaver_tui.core.cli.space_demo import play

        return play(services, sys.stdout)
    return open_space(services, args)


def space_conversation(
    store: ConversationStore, conversation_id: str | None, names: str | None
) -> tuple[Conversation, tuple[str, ...]]:
    """The conversation to serve and the participants to seat (as it spells them)."""
    from agents.errors import ConfigError
    from agents.runtime.user_message import neutral_title
    from agents.shared_space.space import (
        clean_participants,
        new_space,
    )

    wanted = [n for n in (names or "").split(",") if n.strip()]
    try:
        if conversation_id is None:
            if not wanted:
                raise CliError("name the participants: --participants Alex,Sam", EXIT_CONFIG)
            seated = clean_participants(wanted)
            return new_space(store, seated, neutral_title(seated)), seated
        conversation = store.get_conversation(conversation_id)
    except ConfigError as exc:
        raise CliError(exc.user_message, EXIT_CONFIG) from None
    return conversation, _participants_of(store, conversation, wanted)


def _participants_of(
    store: ConversationStore, conversation: Conversation, named: list[str]
) -> tuple[str, ...]:
    """Everyone a space of ``conversation`` seats: its recorded participants, the people who
    have spoken in it (a conversation started with ``ask --sender``), and the ``named`` ones;
    recorded on the conversation when that adds anyone. A conversation of a profile without
    seats has none."""
    from agents.errors import ConfigError
    from agents.profile_registry import get_traits
    from agents.shared_space.space import clean_participants, same_name

    if not get_traits(conversation.profile).seats:
        raise CliError(
            f"conversation {conversation.id} is a {conversation.profile} conversation, which "
            "has no seats: pick a mediator conversation, or open a new space with "
            "--participants and no --conversation",
            EXIT_CONFIG,
        )
    recorded = [str(name) for name in conversation.meta.get("participants") or ()]
    spoken = [r.sender for r in store.list_messages(conversation.id) if r.sender]
    everyone: list[str] = []
    for name in [*recorded, *spoken, *named]:
        if not any(same_name(name, known) for known in everyone):
            everyone.append(name)
    if not everyone:
        raise CliError(
            f"conversation {conversation.id} has no participants yet: name them with "
            "--participants Alex,Sam",
            EXIT_CONFIG,
        )
    try:
        seated = clean_participants(everyone)
    except ConfigError as exc:
        raise CliError(exc.user_message, EXIT_CONFIG) from None
    if list(seated) != recorded:
        store.update_conversation_meta(conversation.id, participants=list(seated))
    return seated


def seat_command(data_dir: Path, seat: Seat, max_message_bytes: int = MAX_MESSAGE) -> str:
    """The app command of ``seat``'s connection: its participant and nothing secret."""
    return shlex.join(
        [
            sys.executable,
            "-m",
            "weaver_tui",
            "space",
            "seat",
            "--data-dir",
            str(data_dir),
            "--conversation",
            seat.conversation_id,
            "--participant",
            seat.participant,
            "--max-message-bytes",
            str(max_message_bytes),
        ]
    )


def open_space(services: Services, args: argparse.Namespace) -> int:
    from storage.backend import open_seat_book
    from weaver_tui.core.seat_registry import SeatLimits
    from weaver_tui.core.serve import ServeError, check_address
    from weaver_tui.core.space_server import SpaceServer

    store = services.store
    try:
        check_address(args.host, args.port, sys.stderr)
    except ServeError as exc:
        raise CliError(str(exc)) from None
    conversation, seated = space_conversation(store, args.space_conversation, args.participants)
    book = open_seat_book(services.storage)
    services.hand_down_storage()
    try:
        book.open_seats(conversation.id, seated)
        data_dir = services.data_dir.resolve()
        max_bytes = services.settings.turns.max_message_bytes

        async def answer_seats(stop: asyncio.Event) -> None:
            await _answer_seats(services, book, conversation.id, stop)

        server = SpaceServer(
            book,
            conversation.id,
            lambda seat: seat_command(data_dir, seat, max_bytes),
            host=args.host,
            port=args.port,
            host_work=answer_seats,
            limits=SeatLimits(
                per_address=args.max_connections_per_address, per_space=args.max_seat_apps
            ),
        )
        sys.stderr.write(f"weaver-tui: serving space {conversation.id}; Ctrl+C stops\n")
        server.serve()
    finally:
        book.close()
    return 0


async def _answer_seats(
    services: Services, book: AnySeatBook, conversation_id: str, stop: asyncio.Event
) -> None:
    from agents.runtime.seat_queue import SeatQueueRunner
    from storage.backend import open_changes

    changes = open_changes(services.storage, conversation_id)
    try:
        async with services.runtime() as runtime:
            model = await services.amodel()
            await SeatQueueRunner(runtime, book, conversation_id, model).run(changes, stop)
    finally:
        changes.close()
        await services.aclose()


def close_space(services: Services, conversation_id: str) -> int:
    from storage.backend import open_seat_book

    services.store.get_conversation(conversation_id)  # an unknown id is said as such
    book = open_seat_book(services.storage)
    try:
        closed = book.close_space(conversation_id)
    finally:
        book.close()
    print(f"closed {closed} seat{'s' if closed != 1 else ''} of space {conversation_id}")
    return 0


def record_file_name(conversation_id: str, participant: str | None) -> str:
    """``space-record-1a2b3c4d.md`` (``-alex`` before the suffix for Alex's copy)."""
    who = "" if participant is None else "-" + "".join(c for c in participant if c.isalnum())
    return f"space-record-{conversation_id[:8]}{who.lower()}.md"


def write_record(services: Services, args: argparse.Namespace) -> int:
    from agents.shared_space.record import space_record

    conversation = services.store.get_conversation(args.space_conversation)
    if not conversation.meta.get("participants"):
        raise CliError(
            f"conversation {conversation.id} is not a shared space; name a mediator conversation",
            EXIT_CONFIG,
        )
    try:
        text = space_record(services.store, conversation.id, args.participant)
    except ValueError as exc:
        raise CliError(str(exc), EXIT_CONFIG) from None
    target = args.output or Path(record_file_name(conversation.id, args.participant))
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(
            f"cannot write {target} ({exc.strerror}); choose another --output", EXIT_CONFIG
        ) from None
    print(f"wrote the record of {conversation.id} to {target}")
    return 0
