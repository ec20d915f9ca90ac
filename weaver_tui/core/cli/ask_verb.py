"""The ``ask`` verb: one turn sent through the runtime, its reply streamed to stdout.

The message and its attachments (``--attach`` files and piped input) are checked against
``max_message_bytes`` before anything is stored; tool and stage lines go to stderr, which ends
with ``usage: ...`` (the turn's tokens, cached and reasoning tokens, cost: what the server
reported) and ``conversation: ID``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.profile_registry import get_traits
from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError
from weaver_tui.core.cli.going_back import edit_or_fork

if TYPE_CHECKING:
    from agents.runtime.user_message import NewMessage
    from storage.turn_locks import TurnLocks
    from weaver_tui.core.services import Services

MAX_MESSAGE = 2_000_000
"""The default of the ``max_message_bytes`` setting."""


def check_message(text: str, limit: int) -> None:
    """Refuse, before anything is stored, a message that is empty or over ``limit`` bytes."""
    if not text.strip():
        raise CliError("the message is empty; give the text to send", EXIT_CONFIG)
    size = len(text.encode("utf-8", errors="surrogateescape"))
    if size > limit:
        raise CliError(
            f"the message is {_size(size)}, over the {_size(limit)} limit "
            "(max_message_bytes): send a shorter one, or attach the part that matters",
            EXIT_CONFIG,
        )


PIPE_WAIT_S = 2.0
"""How long ``ask`` waits for piped input to start (or end) before it goes on without it."""


def _attachments(paths: list[str], room: int) -> list[dict[str, Any]]:
    """The files named with ``--attach`` and what was piped in, within ``room`` bytes."""
    from agents.attachments import (
        STDIN_NAME,
        AttachmentError,
        attachment_from_bytes,
        read_attachment,
        size_text,
        total_size,
    )

    found: list[dict[str, Any]] = []
    try:
        for name in paths:
            found.append(read_attachment(Path(name).expanduser(), max(room - total_size(found), 0)))
        piped = _piped_input(room - total_size(found) + 1)
        if piped:
            found.append(attachment_from_bytes(STDIN_NAME, piped))
    except AttachmentError as exc:
        raise CliError(str(exc), EXIT_CONFIG) from None
    if total_size(found) > room:
        raise CliError(
            f"the message and its attachments are over the {size_text(room)} left of the "
            "limit (max_message_bytes); attach less",
            EXIT_CONFIG,
        )
    return found


def _piped_input(limit: int, wait_s: float = PIPE_WAIT_S) -> bytes:
    """What was piped or redirected to the command: a file read whole, a pipe that has data
    (or ends) within ``wait_s``; nothing for a terminal, ``/dev/null`` or a pipe that stays
    silent (a parent that never closes stdin must not hang ``ask``)."""
    import select
    import stat as stat_module

    stream = sys.stdin
    try:
        if stream is None or stream.isatty():
            return b""
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
        if stat_module.S_ISFIFO(mode) or stat_module.S_ISSOCK(mode):
            ready, _, _ = select.select([fd], [], [], wait_s)
            if not ready:
                return b""
        elif not stat_module.S_ISREG(mode):
            return b""
        return stream.buffer.read(max(limit, 0))
    except (OSError, ValueError, AttributeError):
        return b""


def _size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 1_000_000 else f"{count / 1e3:.0f} KB"


async def ask(services: Services, args: argparse.Namespace) -> int:
    from agents.instructions import InstructionsTooLong, checked_instructions

    args.project_root = args.ask_project_root or args.project_root
    if args.text.startswith("/"):  # a command, an unknown one, or ``//`` text
        from weaver_tui.core.cli.ask_commands import command_prompt

        code = await command_prompt(services, args)
        if code is not None:
            return code
    check_message(args.text, services.settings.turns.max_message_bytes)
    if args.system is not None:
        try:
            args.system = checked_instructions(args.system) or ""
        except InstructionsTooLong as exc:
            raise CliError(str(exc), EXIT_CONFIG) from None
    limit = services.settings.turns.max_message_bytes
    args.attachments = _attachments(
        args.attach, limit - len(args.text.encode("utf-8", "surrogateescape"))
    )
    store = services.store
    profile = args.ask_profile or args.profile
    conversation_id = args.ask_conversation or args.conversation
    if conversation_id and not args.parent:
        _refuse_if_busy(services.turn_locks, conversation_id)
    model = services.model  # a provider that cannot be built fails before anything is stored
    parent_id: str | None = None
    if args.edit and args.parent:
        raise CliError("give --edit or --parent, not both", EXIT_CONFIG)
    if args.edit:  # a new version of the user's message: its sibling, with the new text
        edited = store.get_message(args.edit)
        if edited.role != "user":
            raise CliError(
                f"message {edited.id} is a {edited.role} message: --edit takes one of your "
                "own messages (use --parent to go on from a reply)",
                EXIT_CONFIG,
            )
        if conversation_id and conversation_id != edited.conversation_id:
            raise CliError(
                f"message {edited.id} is in conversation {edited.conversation_id}, "
                f"not {conversation_id}",
                EXIT_CONFIG,
            )
        conversation_id = edited.conversation_id
        parent_id = _fork_parent(store, edited)
    if args.parent:  # the parent names its conversation; check it before creating anything
        parent = store.get_message(args.parent)
        parent_id = _fork_parent(store, parent)
        if conversation_id and conversation_id != parent.conversation_id:
            raise CliError(
                f"message {parent.id} is in conversation {parent.conversation_id}, "
                f"not {conversation_id}",
                EXIT_CONFIG,
            )
        conversation_id = parent.conversation_id
    edit_or_fork(store, args, conversation_id, parent_id)  # back in time: the files too?
    message = _new_message(services, args, store, profile, conversation_id, parent_id)
    return await _run_ask_turn(services, args, model, message)


def _fork_parent(store: Any, parent: Any) -> str | None:
    """Where ``--parent`` puts the new message (see ``TreeIndex.fork_parent``), or one sentence."""
    from storage.tree_index import ForkError

    try:
        return store.tree_index(parent.conversation_id).fork_parent(parent.id)  # type: ignore[no-any-return]
    except ForkError as exc:
        raise CliError(f"{exc} (message {parent.id})", EXIT_CONFIG) from None


def _refuse_if_busy(locks: TurnLocks, conversation_id: str) -> None:
    """Refuse a conversation another process is answering now, before the model and the
    runtime are built (the turn takes its lock itself: this check only answers sooner)."""
    from agents.runtime.turn_lock import ConversationBusy, conversation_busy

    if conversation_busy(locks, conversation_id):
        busy = ConversationBusy(conversation_id)
        raise CliError(f"{busy.user_message} (conversation {conversation_id})")


def _new_message(
    services: Services,
    args: argparse.Namespace,
    store: Any,
    profile: str | None,
    conversation_id: str | None,
    parent_id: str | None,
) -> NewMessage:
    """What ``ask`` sends, and where: the runtime stores it (and creates the conversation)."""
    from agents.runtime.user_message import NewMessage

    conversation_meta: dict[str, Any] = {}
    if conversation_id:
        conversation = store.get_conversation(conversation_id)
        if profile and profile != conversation.profile:
            raise CliError(
                f"conversation {conversation.id} belongs to the {conversation.profile} profile, "
                f"not {profile}"
            )
        args.sender = _participant(args.sender, conversation.profile, conversation.meta)
        profile = conversation.profile
        if args.system is not None:
            store.update_conversation_meta(conversation.id, instructions=args.system or None)
    else:
        profile = profile or services.settings.ui.default_profile
        args.sender = _participant(args.sender, profile, {})
        if args.project_root or get_traits(profile).project_root:
            conversation_meta["project_root"] = str((args.project_root or Path.cwd()).resolve())
        if args.system:
            conversation_meta["instructions"] = args.system
    user_meta: dict[str, Any] = {}
    if args.sender:  # a participant's message, written as every front end writes one
        from agents.shared_space.events import UserMessageEvent

        user_meta = UserMessageEvent(sender=args.sender, content=args.text).record_meta()
    if args.attachments:
        user_meta["attachments"] = args.attachments
    return NewMessage(
        profile=profile,
        text=args.text,
        conversation_id=conversation_id,
        parent_id=parent_id,
        # continuing at the active leaf: the runtime holds the conversation's turn lock
        at_active_leaf=conversation_id is not None and not (args.parent or args.edit),
        meta=user_meta,
        conversation_meta=conversation_meta,
    )


def _participant(sender: str | None, profile: str, meta: dict[str, Any]) -> str | None:
    """``--sender`` as a participant of the conversation spells it (case and spacing
    forgiven); a name that is not a participant is refused before anything is stored."""
    if sender is None:
        return None
    from agents.shared_space.space import canonical_participant, names_in_words

    participants = tuple(meta.get("participants") or get_traits(profile).participants)
    if not participants:
        raise CliError(f"the {profile} profile has a single user: leave out --sender", EXIT_CONFIG)
    name = canonical_participant(sender, participants)
    if name is None:
        raise CliError(
            f"{sender!r} is not a participant of this conversation; its participants are "
            f"{names_in_words(participants)}",
            EXIT_CONFIG,
        )
    return name


async def _run_ask_turn(
    services: Services, args: argparse.Namespace, model: Any, message: NewMessage
) -> int:
    def turn(runtime: Any, cancel: asyncio.Event) -> Any:
        return runtime.send(
            message,
            model=model,
            cancel=cancel,
            project_root=args.project_root.resolve() if args.project_root else None,
            sender=args.sender,
            tool_approval="approve" if args.approve else "refuse",
        )

    from weaver_tui.core.cli.ask_events import run_events

    return await run_events(services, args, turn, message.conversation_id, message.profile)
