"""The ACP session's answers to the slash commands beyond ``/help``, ``/model`` and
``/profile``: ``/export`` (the session's branch as Markdown), ``/search WORDS``, ``/undo`` and
``/redo`` of an accepted patch, and the session profile's own commands (``/kb``).

A command that writes the project's files (``/undo``, ``/redo``) runs only after the client
asks the user (``session/request_permission``, naming the patch and its file) and the user
allows it; a cancelled or refused request leaves the files as they are. The patch is picked as
every front end picks it (:func:`agents.patch_review.rewind.next_to_rewind`), on the session's
own branch.
"""

from __future__ import annotations

import inspect
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp.schema import AllowedOutcome, PermissionOption, ToolCallUpdate

from agents.slash_commands import SlashCommand
from storage.printable import printable
from weaver_tui.core.acp_agent.patch_permission import ACCEPT, REJECT

if TYPE_CHECKING:
    from acp import Client

    from storage.store import ConversationStore
    from weaver_tui.core.acp_agent.sessions import AcpSession
    from weaver_tui.core.services import Services

ALLOW = ACCEPT
LEAVE = REJECT
NO_CONVERSATION = "This session has no conversation yet: send a message first."


async def command_answer(
    command: SlashCommand,
    argument: str,
    session: AcpSession,
    store: ConversationStore,
    client: Client,
    services: Services,
) -> str:
    """The one text the session's client is sent for ``command``. A command that writes
    files runs only through :func:`_asked_first` (the client's yes), whichever it is."""
    if command.profile_key is not None:
        return await _profile_key(command, session, store, services)
    if command.name == "search":
        return _search(store, argument)
    if session.conversation_id is None:
        return NO_CONVERSATION
    if command.writes_files:
        return await _asked_first(command, session, store, client)
    if command.name == "export":
        return store.export_markdown(session.conversation_id)
    return f"/{command.name} does not run over ACP."


def _search(store: ConversationStore, query: str) -> str:
    if not query:
        return "Give the words to find: /search WORDS."
    hits = store.search(query, limit=20)
    if not hits:
        return f"Nothing matches {query!r}."
    return "\n".join(
        f"- {hit.conversation_title} ({hit.role}): {' '.join(hit.snippet.split())}" for hit in hits
    )


def _leaf(session: AcpSession, store: ConversationStore) -> str | None:
    assert session.conversation_id is not None
    if session.placement.placed:
        return session.placement.leaf_id
    leaf = store.active_leaf(session.conversation_id)
    return leaf.id if leaf is not None else None


async def _asked_first(
    command: SlashCommand, session: AcpSession, store: ConversationStore, client: Client
) -> str:
    """Plan what ``command`` would write, ask the client, and write it only on a yes."""
    if session.busy:
        return f"A reply is being written in this session: send /{command.name} once it ends."
    planned = _planned_write(command, session, store)
    if isinstance(planned, str):
        return planned  # nothing to write, said
    title, target, write = planned
    options = [
        PermissionOption(option_id=ALLOW, name=title, kind="allow_once"),
        PermissionOption(option_id=LEAVE, name="Leave the files", kind="reject_once"),
    ]
    question = ToolCallUpdate(
        tool_call_id=f"slash-{command.name}-{uuid.uuid4().hex}",
        title=printable(f"{title}?"),
        kind="edit",
        status="pending",
        raw_input={"command": command.name, "path": str(target)},
    )
    answer = await client.request_permission(
        session_id=session.id, tool_call=question, options=options
    )
    outcome: Any = answer.outcome
    if not isinstance(outcome, AllowedOutcome) or outcome.option_id != ALLOW:
        return "Files left as they are."
    return write()


def _planned_write(
    command: SlashCommand, session: AcpSession, store: ConversationStore
) -> str | tuple[str, Path, Callable[[], str]]:
    """What a file-writing command would do: (the question's title, the file, the write), or
    the sentence saying there is nothing to do."""
    from agents.patch_review.rewind import NOTHING_TO_REWIND, next_to_rewind, rewind

    if command.name not in ("undo", "redo"):
        return f"/{command.name} does not run over ACP."
    direction: Any = "revert" if command.name == "undo" else "redo"
    leaf = _leaf(session, store)
    path = store.path_to_root(leaf) if leaf is not None else []
    patch = next_to_rewind(store, path, direction)
    if patch is None:
        return NOTHING_TO_REWIND[direction]
    verb = "Undo" if direction == "revert" else "Re-apply"
    return (
        f"{verb} patch {patch.summary}",
        (session.cwd / patch.path).resolve(),
        lambda: rewind(session.cwd, store, patch, direction).message,
    )


async def _profile_key(
    command: SlashCommand, session: AcpSession, store: ConversationStore, services: Services
) -> str:
    """A profile's own command: its key's handler, as the app's key runs it."""
    from agents.profile import ProfileContext
    from agents.profile_registry import get_traits, load_handler

    assert command.profile_key is not None
    key = get_traits(session.profile).keys[command.profile_key]
    context = ProfileContext(
        conversation_id=session.conversation_id,
        store=store,
        data_dir=Path(services.settings.storage.data_dir),
        settings=services.settings.profile_settings(),
    )
    try:
        said = load_handler(key.handler, f"The command {key.command!r}")(context)
        if inspect.isawaitable(said):
            said = await said
    except Exception as exc:  # noqa: BLE001 (a profile's own code: one sentence)
        message = getattr(exc, "user_message", None) or str(exc) or type(exc).__name__
        return f"/{command.name} failed: {message[:300]}"
    return str(said or "")
