"""Slash commands as the whole prompt of ``ask``: ``weaver-tui ask "/help"``, ``/model``,
``/profile``, ``/search QUERY``, and on a conversation (``--conversation ID``) ``/export``,
``/instructions [TEXT]``, ``/regenerate``, ``/undo``, ``/redo``, plus the profile's own
(``/kb`` for paper-pilot).

Each prints its result on stdout (with ``--json``: one JSON object, ``{"command": NAME,
"result": TEXT, ...}``; ``/regenerate`` streams its turn as ``ask`` does). A command that writes
the project's files (``/undo``, ``/redo``) runs only with ``--yes``; without it, one sentence
and exit status 2, before anything is read or written. A prompt with one slash that names no
command is refused with one sentence (``//`` sends it as text), exit status 2. A command is not
a message: none is stored.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.slash_commands import (
    SlashCommand,
    SlashInput,
    commands_for,
    help_text,
    parse_slash,
    runs_elsewhere,
)
from storage.printable import printable
from weaver_tui.core.cli.errors import EXIT_CONFIG, EXIT_FAILURE, CliError
from weaver_tui.core.cli.going_back import go_back

if TYPE_CHECKING:
    from storage.models import Conversation
    from weaver_tui.core.services import Services


def ask_commands(profile: str) -> tuple[SlashCommand, ...]:
    """The commands ``ask`` runs for ``profile``: the table's and the profile's own."""
    from agents.profile_registry import get_traits

    return commands_for("ask", get_traits(profile).keys)


async def command_prompt(services: Services, args: argparse.Namespace) -> int | None:
    """Run the prompt ``args.text`` when it is a command (its exit status) or refuse it when
    it names none; ``None`` for text to send, which ``args.text`` then holds (``//x``: ``/x``)."""
    profile = _profile_of(services, args)
    typed = parse_slash(args.text, ask_commands(profile))
    if typed.kind == "unknown":
        raise unknown(typed.name)
    if typed.kind == "command":
        return await run_command(services, args, typed, profile)
    args.text = typed.text
    return None


def _profile_of(services: Services, args: argparse.Namespace) -> str:
    """The profile ``ask`` works with: the conversation's, else the one asked for, else the
    default."""
    conversation_id = args.ask_conversation or args.conversation
    if conversation_id:
        return str(services.store.get_conversation(conversation_id).profile)
    return str(args.ask_profile or args.profile or services.settings.ui.default_profile)


def unknown(name: str) -> CliError:
    why = runs_elsewhere(name, "ask") or "is not a command"
    return CliError(
        f"/{printable(name)[:40]} {why}: weaver-tui ask /help lists them; to send a "
        "message that starts with / as text, start it with // instead",
        EXIT_CONFIG,
    )


async def run_command(
    services: Services, args: argparse.Namespace, typed: SlashInput, profile: str
) -> int:
    """Run the command ``typed`` (one of :func:`ask_commands`) and print its result."""
    command = next(c for c in ask_commands(profile) if c.name == typed.name)
    if args.attach:
        raise CliError(f"/{command.name} takes no attached files: leave out --attach", EXIT_CONFIG)
    if command.writes_files and not args.yes:
        raise CliError(
            f"/{command.name} writes the project's files: add --yes to let it "
            f"(weaver-tui ask --yes --conversation ID /{command.name})",
            EXIT_CONFIG,
        )
    if command.profile_key is not None:
        return await _profile_key(services, args, command, profile)
    name, argument = command.name, typed.argument
    if name == "help":
        return _say(args, name, help_text(ask_commands(profile)))
    if name == "model":
        return _model(services, args, argument)
    if name == "profile":
        return _profile(args, argument, profile)
    if name == "search":
        return _search(services, args, argument)
    conversation = _conversation(services, args, name)
    if name == "export":
        markdown = services.store.export_markdown(conversation.id)
        return _say(args, name, markdown.rstrip("\n"), conversation_id=conversation.id)
    if name == "instructions":
        return _instructions(services, args, conversation, argument)
    if name == "regenerate":
        return await _regenerate(services, args, conversation)
    if name in ("undo", "redo"):
        return _rewind(services, args, conversation, "revert" if name == "undo" else "redo")
    raise CliError(f"/{name} does not run in ask", EXIT_CONFIG)  # a table entry without a case


def _say(args: argparse.Namespace, name: str, text: str, code: int = 0, **extra: Any) -> int:
    if args.json_events:
        print(json.dumps({"command": name, "result": text, **extra}))
    else:
        print(printable(text))
    return code


def _conversation(services: Services, args: argparse.Namespace, name: str) -> Conversation:
    conversation_id = args.ask_conversation or args.conversation
    if not conversation_id:
        raise CliError(
            f"/{name} works on a conversation: add --conversation ID "
            "(weaver-tui conversations lists them)",
            EXIT_CONFIG,
        )
    return services.store.get_conversation(conversation_id)


def _model(services: Services, args: argparse.Namespace, argument: str) -> int:
    if argument:
        raise CliError(
            "ask takes its model from --model (or the config): weaver-tui --model NAME ask ...",
            EXIT_CONFIG,
        )
    model = services.model
    text = f"The model is {model.model_name} ({model.provider})."
    return _say(args, "model", text, provider=model.provider, model=model.model_name)


def _profile(args: argparse.Namespace, argument: str, profile: str) -> int:
    from agents.profile_registry import PROFILE_NAMES

    if argument:
        raise CliError(
            "ask takes its profile from --profile (or the conversation's): "
            "weaver-tui ask --profile NAME ...",
            EXIT_CONFIG,
        )
    text = f"The profile is {profile}; the profiles are {', '.join(PROFILE_NAMES)}."
    return _say(args, "profile", text, profile=profile, profiles=list(PROFILE_NAMES))


def _search(services: Services, args: argparse.Namespace, query: str) -> int:
    if not query:
        raise CliError("give the words to find: weaver-tui ask '/search WORDS'", EXIT_CONFIG)
    hits = services.store.search(query, limit=50)
    lines = [
        f"{hit.conversation_id}  {hit.message_id}  {hit.role:<9}  {' '.join(hit.snippet.split())}"
        for hit in hits
    ]
    matches = [
        {
            "conversation_id": hit.conversation_id,
            "conversation_title": hit.conversation_title,
            "message_id": hit.message_id,
            "role": hit.role,
            "snippet": hit.snippet,
        }
        for hit in hits
    ]
    text = "\n".join(lines) if lines else f"Nothing matches {query!r}."
    return _say(args, "search", text, 0 if hits else EXIT_FAILURE, matches=matches)


def _instructions(
    services: Services, args: argparse.Namespace, conversation: Conversation, text: str
) -> int:
    from agents.instructions import InstructionsTooLong, checked_instructions

    if not text:
        current = conversation.meta.get("instructions") or ""
        shown = str(current) or "This conversation has no instructions of its own."
        return _say(args, "instructions", shown, instructions=str(current))
    try:
        checked = checked_instructions(text) or ""
    except InstructionsTooLong as exc:
        raise CliError(str(exc), EXIT_CONFIG) from None
    services.store.update_conversation_meta(conversation.id, instructions=checked or None)
    return _say(
        args, "instructions", "The conversation's instructions are set.", instructions=checked
    )


def _rewind(
    services: Services, args: argparse.Namespace, conversation: Conversation, direction: Any
) -> int:
    from agents.patch_review.rewind import NOTHING_TO_REWIND, next_to_rewind, rewind
    from agents.runtime.turn_lock import ConversationBusy, conversation_busy

    name = "undo" if direction == "revert" else "redo"
    if conversation_busy(services.turn_locks, conversation.id):  # a turn may write there too
        busy = ConversationBusy(conversation.id)
        raise CliError(f"{busy.user_message} (conversation {conversation.id})")
    root = conversation.meta.get("project_root")
    leaf = services.store.active_leaf(conversation.id)
    if not root or leaf is None:
        return _say(args, name, NOTHING_TO_REWIND[direction], EXIT_FAILURE, done=False)
    store = services.store
    patch = next_to_rewind(store, store.path_to_root(leaf.id), direction)
    if patch is None:
        return _say(args, name, NOTHING_TO_REWIND[direction], EXIT_FAILURE, done=False)
    outcome = rewind(Path(str(root)), store, patch, direction)
    code = 0 if outcome.done else EXIT_FAILURE
    return _say(args, name, outcome.message, code, done=outcome.done, path=patch.path)


async def _regenerate(
    services: Services, args: argparse.Namespace, conversation: Conversation
) -> int:
    """A new version of the active branch's last reply, streamed as ``ask`` streams a turn."""
    from weaver_tui.core.cli.ask_events import run_events

    store = services.store
    leaf = store.active_leaf(conversation.id)
    user = next(
        (r for r in reversed(store.path_to_root(leaf.id)) if r.role == "user"),
        None,
    ) if leaf is not None else None  # fmt: skip
    if user is None:
        raise CliError(
            f"conversation {conversation.id} has no message of yours to answer again",
            EXIT_CONFIG,
        )
    model = services.model
    go_back(store, args, conversation.id, user.id)

    def turn(runtime: Any, cancel: Any) -> Any:
        root = conversation.meta.get("project_root")
        events = runtime.run_turn(
            conversation_id=conversation.id,
            user_message_id=user.id,
            model=model,
            cancel=cancel,
            project_root=Path(str(root)) if root else None,
            tool_approval="approve" if args.approve else "refuse",
        )
        return runtime.exclusively(conversation.id, events)

    return await run_events(services, args, turn, conversation.id, conversation.profile)


async def _profile_key(
    services: Services, args: argparse.Namespace, command: SlashCommand, profile: str
) -> int:
    """A profile's own command: its key's handler, as the app's key runs it."""
    import inspect

    from agents.profile import ProfileContext
    from agents.profile_registry import get_traits, load_handler

    assert command.profile_key is not None
    key = get_traits(profile).keys[command.profile_key]
    conversation_id = args.ask_conversation or args.conversation
    context = ProfileContext(
        conversation_id=conversation_id,
        store=services.store,
        data_dir=Path(services.settings.storage.data_dir),
        settings=services.settings.profile_settings(),
    )
    try:
        said = load_handler(key.handler, f"The command {key.command!r}")(context)
        if inspect.isawaitable(said):
            said = await said
    except Exception as exc:  # noqa: BLE001 (a profile's own code: one sentence)
        message = getattr(exc, "user_message", None) or str(exc) or type(exc).__name__
        raise CliError(f"/{command.name} failed: {message[:300]}") from None
    return _say(args, command.name, str(said or ""))
