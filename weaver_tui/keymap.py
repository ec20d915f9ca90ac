"""The keymap weaver ships, as data: one list that the bindings, the help screen, the command
palette and the README are all built from, so they can never disagree.

Every user action is a :class:`KeyAction`: the plain command-palette name (stable: tests and
the README use it), the key (or ``None`` for palette-only commands), where it applies, and
the action it runs. ``scope`` says who owns the binding:

- ``app``: bound on :class:`~weaver_tui.app.WeaverApp` (works on every screen);
- ``chat``: bound on the chat screen (works while the chat is the active screen);
- ``tree``, ``messages``, ``composer``, ``tools``: keys the widget of that name defines itself; listed
  here for the help screen and the README only.

``action`` is a Textual action string run on the chat screen (``"fork_selected"``) or the app
(``"app.help"``); ``None`` for widget keys, which act on the focused widget. ``owner`` names the
chat widget whose action it is when that is not the screen (``Branching``, ``ProfilePanel``),
and the command palette runs it there. A ``chat`` key of an owner is bound on the owner itself
(:func:`owned_bindings`: it acts while the focus is inside it) and on the screen, which hands it
to the owner from anywhere else on the chat (:func:`reach_from_anywhere`); a ``tree`` or
``messages`` key is that widget's own, which asks the owner through a message.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from textual.binding import Binding

Scope = Literal["app", "chat", "tree", "messages", "composer", "tools"]


@dataclass(frozen=True, slots=True)
class KeyAction:
    """One user action: its palette name, its key, where it applies and what it runs."""

    command: str
    description: str
    key: str | None
    scope: Scope
    action: str | None = None
    show: bool = False
    """Whether the footer shows the key."""
    priority: bool = False
    """Bind before the focused widget sees the key (so the composer does not swallow it)."""
    short: str = ""
    """The footer's label when the whole row of keys does not fit (empty: the command)."""
    owner: str = ""
    """The type name of the chat widget whose action this is (empty: the screen, or the app
    for ``app.`` actions); the palette finds it on the screen by that name."""

    @property
    def key_display(self) -> str:
        """The key as a person would type it: ``Ctrl+N``, ``F1``, ``[``."""
        if self.key is None:
            return ""
        return " ".join(_display_one(key) for key in self.key.split(","))


_KEY_NAMES = {
    "escape": "Esc",
    "delete": "Delete",
    "enter": "Enter",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "end": "End",
}


def _display_one(key: str) -> str:
    parts = key.split("+")
    if len(parts) == 1 and len(key) == 1:
        return key
    return "+".join(_KEY_NAMES.get(p, p.capitalize() if len(p) > 1 else p.upper()) for p in parts)


BRANCHING = "Branching"
"""The chat's body, which owns branching (:class:`weaver_tui.screens.chat.branching.Branching`)."""
PROFILE_PANEL = "ProfilePanel"
"""The slot above the composer (:class:`weaver_tui.screens.chat.profile_panel.ProfilePanel`)."""

KEYMAP: tuple[KeyAction, ...] = (
    # global
    KeyAction(
        "New conversation",
        "Start a new conversation with the current profile",
        "ctrl+n",
        "chat",
        "new_conversation",
        show=True,
        short="New",
        priority=True,
    ),
    KeyAction(
        "Conversations",
        "Open the conversations list: open, rename, delete, new, search",
        "ctrl+o",
        "chat",
        "open_conversations",
        show=True,
        short="Open",
        priority=True,
    ),
    KeyAction(
        "Search conversations",
        "Full-text search over every branch of every conversation",
        None,
        "chat",
        "search_conversations",
    ),
    KeyAction(
        "Toggle tree",
        "Show, focus or hide the conversation tree",
        "ctrl+t",
        "chat",
        "toggle_tree",
        show=True,
        short="Tree",
        priority=True,
    ),
    KeyAction(
        "Toggle tool pane",
        "Show or hide the tool-status pane",
        "ctrl+g",
        "chat",
        "toggle_tool_pane",
        show=True,
        short="Tools",
        priority=True,
    ),
    KeyAction(
        "Switch profile",
        "Pick another agent profile: reopens its last conversation (naming the project root it keeps) or starts one",
        "ctrl+r",
        "chat",
        "switch_profile",
        priority=True,
    ),
    KeyAction(
        "Switch model",
        "Pick the provider and model used from the next turn",
        "ctrl+l",
        "chat",
        "switch_model",
        priority=True,
    ),
    KeyAction(
        "Attach file",
        "Attach a text file or an image to your next message (or write @path in it; Tab completes)",
        None,
        "chat",
        "attach_file",
    ),
    KeyAction(
        "Compose in editor",
        "Write the message in $VISUAL or $EDITOR (else nano, vim or vi); what you save comes back to the composer",
        "ctrl+e",
        "chat",
        "compose_in_editor",
        priority=True,
    ),
    KeyAction(
        "Cancel reply",
        "Stop the reply being written (what arrived is kept, marked cancelled)",
        "escape",
        "chat",
        "cancel_reply",
        show=True,
    ),
    KeyAction(
        "Steer the running turn",
        "Send your message into the reply being written: the model reads it after the current "
        "tool round (Ctrl+Enter where the terminal reports it); with no reply, it is sent",
        "ctrl+enter,ctrl+f",
        "chat",
        "steer_turn",
        priority=True,
    ),
    KeyAction(
        "Project instructions (AGENTS.md)",
        "Send the project's AGENTS.md (and its folders' own) with this conversation's turns, or "
        "stop (a click on the header's AGENTS.md badge does too)",
        None,
        "chat",
        "toggle_project_instructions",
    ),
    KeyAction(
        "Leave edit or fork mode",
        "With no reply being written: drop the edit or fork and show the branch as it was",
        "escape",
        "chat",
        "leave_mode",
        show=True,
    ),
    KeyAction(
        "Retry",
        "Run the failed or cancelled turn again (a new sibling reply)",
        "f5",
        "chat",
        "retry",
        show=True,
        priority=True,
    ),
    KeyAction("Command palette", "Every action by name", "ctrl+p", "app", None),
    KeyAction("Help", "This list of keys", "f1", "app", "app.help", show=True, priority=True),
    KeyAction(
        "Quit", "Leave weaver-tui (the branch you are on is remembered)", "ctrl+q", "app", None
    ),
    # actions on the selected message (tree or message view)
    KeyAction(
        "Fork from selected message",
        "The next message you send starts a new branch: below a selected reply, or asked "
        "instead of a selected question (its sibling)",
        "f",
        "tree",
        "fork_selected",
        owner=BRANCHING,
    ),
    KeyAction(
        "Edit message",
        "Put the selected message in the composer: yours sends a new version; a reply is saved as a new version",
        "e",
        "tree",
        "edit_selected",
        owner=BRANCHING,
    ),
    KeyAction(
        "Regenerate reply",
        "Write a new version of the selected reply",
        "r",
        "tree",
        "regenerate_selected",
        owner=BRANCHING,
    ),
    KeyAction(
        "Next version",
        "Switch the chat to the next sibling version of the selected message",
        "]",
        "tree",
        "next_version",
        owner=BRANCHING,
    ),
    KeyAction(
        "Previous version",
        "Switch the chat to the previous sibling version of the selected message",
        "[",
        "tree",
        "previous_version",
        owner=BRANCHING,
    ),
    KeyAction(
        "Check out message",
        "Show the path through the selected message and its remembered branch (offers to revert the patches applied after it)",
        "enter",
        "tree",
        "checkout_selected",
        owner=BRANCHING,
    ),
    KeyAction(
        "Delete branch",
        "Delete the selected message and everything below it (asks first)",
        "delete",
        "tree",
        "delete_selected",
        owner=BRANCHING,
    ),
    KeyAction(
        "Move in the tree",
        "Up/down: previous/next line; left/right: parent/child",
        "up,down,left,right",
        "tree",
        None,
    ),
    # the message view (focus it with Tab)
    KeyAction(
        "Select message",
        "Up/down (or k/j): the previous/next message; f, e, r, [ and ] act on it as in the tree",
        "up,down,k,j",
        "messages",
        None,
    ),
    KeyAction(
        "Copy message",
        "Copy the selected message (else the latest) to the clipboard",
        "y",
        "messages",
        "copy_selected",
        owner=BRANCHING,
    ),
    KeyAction(
        "Copy code block",
        "Copy the code block of the selected message nearest the view",
        "c",
        "messages",
        None,
    ),
    KeyAction(
        "Fold thinking",
        "Unfold or fold the selected reply's thinking",
        "t",
        "messages",
        None,
    ),
    KeyAction(
        "Jump to latest",
        "Scroll to the end of the chat and follow the reply being written",
        "end",
        "messages",
        None,
    ),
    # composer
    KeyAction("Send message", "Send what you typed", "enter", "composer", None),
    KeyAction(
        "New line",
        "Insert a line break (Shift+Enter too, where the terminal reports it)",
        "ctrl+j",
        "composer",
        None,
    ),
    KeyAction(
        "Prompt history",
        "In an empty composer: Up recalls the prompts sent to this profile, newest first; Down goes back",
        "up,down",
        "composer",
        None,
    ),
    # tool pane
    KeyAction(
        "Open tool output",
        "Show every line of the selected tool-pane row's output (a click does too)",
        "enter",
        "tools",
        None,
    ),
    KeyAction(
        "Save artifacts",
        "Save the selected reply's files (an atom's code and spec ...) under the project root (asks first)",
        "ctrl+s",
        "chat",
        "save_artifacts",
        priority=True,
    ),
    KeyAction(
        "Reply trace",
        "paper-pilot: how the selected reply (else the latest) was made: stages, timings, models, queries, chunks, verdicts",
        "f9",
        "chat",
        "show_trace",
    ),
    # palette-only
    KeyAction(
        "Set instructions",
        "Extra instructions for this conversation ('answer in French'), sent with every turn",
        None,
        "chat",
        "set_instructions",
    ),
    KeyAction(
        "Use instructions template",
        "Set this conversation's instructions from a saved template (templates/*.md in the config folder)",
        None,
        "chat",
        "use_template",
    ),
    KeyAction(
        "Pin in context",
        "Always send the selected message to the model, however old (again: unpin)",
        None,
        "chat",
        "pin_in_context",
    ),
    KeyAction(
        "Leave out of context",
        "Never send the selected message to the model (again: send it as usual)",
        None,
        "chat",
        "leave_out_of_context",
    ),
    KeyAction(
        "Summarise older turns",
        "Replace all but the latest messages of this branch, for the model, by a summary (the tree keeps them)",
        None,
        "chat",
        "summarise_older",
    ),
    KeyAction(
        "Auto-summary for this conversation",
        "Turn off (again: on) the summary of older turns made before a turn would pass 90% of the model's window",
        None,
        "chat",
        "toggle_auto_summary",
    ),
    KeyAction(
        "Undo last patch",
        "ide-helper: revert the latest patch applied on this branch (only if the file still holds it)",
        None,
        "chat",
        "undo_patch",
    ),
    KeyAction(
        "Redo patch",
        "ide-helper: apply again the patch undone last on this branch (only if the file is as before)",
        None,
        "chat",
        "redo_patch",
    ),
    KeyAction(
        "Continue reply",
        "A new version of the selected reply that starts with its text and goes on (after you edited it, or it stopped short)",
        None,
        "chat",
        "continue_reply",
        owner=BRANCHING,
    ),
    KeyAction(
        "Branch as new conversation",
        "Copy the path to the selected message into a conversation of its own (it notes where it came from)",
        None,
        "chat",
        "branch_to_conversation",
        owner=BRANCHING,
    ),
    KeyAction(
        "Export conversation",
        "Save the active branch as Markdown and the whole tree as JSONL",
        None,
        "chat",
        "export_conversation",
    ),
    KeyAction(
        "Answer tool approval",
        "Say whether the tool call a paused turn waits on may run (once, always here, deny)",
        None,
        "chat",
        "answer_tool_approval",
    ),
    KeyAction(
        "MCP servers",
        "List your MCP servers and their tools, how each is doing, and switch any off for this conversation",
        None,
        "chat",
        "show_mcp_servers",
    ),
)
"""Every action weaver offers, in the order the help screen lists them."""


def bindings_for(scope: Scope) -> list[Binding]:
    """Textual bindings for the keys of ``scope`` that have a key and an action of the screen
    (or the app) itself."""
    bindings: list[Binding] = []
    for item in KEYMAP:
        if item.scope != scope or item.key is None or item.action is None or item.owner:
            continue
        action = item.action.removeprefix("app.") if scope == "app" else item.action
        bindings.append(_binding(item, action))
    return bindings


SPEAKER_KEY = "f2"
"""The key that cycles the speaker (free in Textual's TextArea and in weaver's keymap)."""
AUDIENCE_KEY = "f8"
"""The key that switches between "the mediator only" and "everyone" (free as well)."""
VIEW_KEY = "f3"
"""The key that cycles the view (free in Textual's TextArea and in weaver's keymap)."""
REVIEW_KEY = "f4"
"""The key that opens the patch review waiting on the path (ide-helper)."""

PROFILE_KEYS: tuple[KeyAction, ...] = (
    KeyAction(
        "Switch speaker",
        "Mediator: send the next message as the next participant",
        SPEAKER_KEY,
        "chat",
        "cycle_speaker",
        owner=PROFILE_PANEL,
    ),
    KeyAction(
        "Switch audience",
        "Mediator: say the next message to the mediator only, or to everyone",
        AUDIENCE_KEY,
        "chat",
        "cycle_audience",
        owner=PROFILE_PANEL,
    ),
    KeyAction(
        "Switch view",
        "Mediator: show everything, the shared channel, or one participant's view",
        VIEW_KEY,
        "chat",
        "cycle_view",
        owner=PROFILE_PANEL,
    ),
    KeyAction(
        "Review pending patch",
        "ide-helper: open the proposed patch that waits for your decision",
        REVIEW_KEY,
        "chat",
        "review_patch",
        owner=PROFILE_PANEL,
    ),
    KeyAction(
        "Remembered items",
        "List what the profile remembers across conversations (paper-pilot's facts) and forget any of it",
        None,
        "chat",
        "show_remembered",
    ),
    KeyAction(
        "Play mediator demo",
        "Open a new mediator space and play the couple's demo turn by turn (Esc stops it)",
        None,
        "chat",
        "play_demo",
    ),
    KeyAction(
        "Invite participants",
        "Mediator: serve this space to its participants, one link each; shows the links to send",
        None,
        "chat",
        "invite_participants",
    ),
    KeyAction(
        "Close shared space",
        "Mediator: stop serving this space and revoke its participants' links",
        None,
        "chat",
        "close_space",
    ),
    KeyAction(
        "Write space record",
        "Mediator: write what was agreed as Markdown (from one participant's view: their own copy)",
        None,
        "chat",
        "write_space_record",
    ),
)
"""Chat-screen keys of the profile panels and traits (speakers, patch review, demo, seats)."""


def _binding(item: KeyAction, action: str) -> Binding:
    assert item.key is not None
    return Binding(
        item.key,
        action,
        item.command,
        show=item.show,
        priority=item.priority,
        tooltip=item.description,
    )


def owned_bindings(owner: str) -> list[Binding]:
    """The bindings a chat widget defines itself: the ``chat`` keys of the actions it owns."""
    return [
        _binding(item, item.action)
        for item in all_actions()
        if item.owner == owner and item.scope == "chat" and item.key and item.action
    ]


def reach_from_anywhere(owner: str) -> list[Binding]:
    """Screen bindings for the keys of ``owner`` that work from anywhere on the chat (its
    ``chat`` keys): each runs the owner's action through the screen's ``on_widget`` action,
    as Textual looks for a binding only along the focused widget and its ancestors."""
    return [
        _binding(item, f"on_widget({owner!r}, {item.action!r})")
        for item in all_actions()
        if item.owner == owner and item.scope == "chat" and item.key and item.action
    ]


def all_actions() -> tuple[KeyAction, ...]:
    """:data:`KEYMAP` and :data:`PROFILE_KEYS` (speakers, patch review, demo)."""
    return (*KEYMAP, *PROFILE_KEYS)


def short_labels() -> dict[str, str]:
    """Command -> the footer's short label, for the keys that have one."""
    return {item.command: item.short for item in all_actions() if item.short}


def palette_commands() -> Iterable[KeyAction]:
    """The actions the command palette offers (everything that runs an action)."""
    return (item for item in all_actions() if item.action is not None)


def keymap_markdown() -> str:
    """The keymap as a Markdown table, for the README."""
    lines = ["| Key | Command | Where | What it does |", "|---|---|---|---|"]
    for item in all_actions():
        key = item.key_display or "(palette)"
        lines.append(f"| {key} | {item.command} | {item.scope} | {item.description} |")
    return "\n".join(lines)
