"""What a profile is: a name, a prompt, tools, a graph built from the shared blocks, and the
traits the app reads to show it.

A profile lives in ``agents/profiles/<name>/`` (``traits.py``, ``profile.py``, ``state.py``,
``graph.py``, ``tools.py``, ``prompts/``) and is registered in :mod:`agents.profile_registry` under its
final name. ``traits.py`` imports nothing but this module, so the app can read every profile's
traits while it starts without importing any graph, tool or model library.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

from agents.slash_commands import EVERYWHERE, FrontEnd

if TYPE_CHECKING:
    import argparse

    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool
    from langgraph.graph import StateGraph

    from storage.store import ConversationStore

ToolApprovalMode = Literal["ask", "approve", "refuse"]


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Per-turn facts that nodes and tools read through LangGraph's runtime context
    (``runtime.context`` in a node, ``ToolRuntime.context`` in a tool).

    The graph is compiled once per profile; everything that differs between turns (the model
    the user picked, the conversation, the project root, who is speaking) travels here.
    """

    model: BaseChatModel
    conversation_id: str
    user_message_id: str
    store: ConversationStore
    system_prompt: str
    project_root: Path = field(default_factory=Path.cwd)
    max_tool_rounds: int = 5
    sender: str | None = None
    participants: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    tool_seconds: float = 30.0
    """Time limit of one tool call; past it the call is stopped and the model told."""
    tool_result_chars: int = 64_000
    """Size limit of one tool result the model reads; a longer one is cut, saying so."""
    data_dir: Path | None = None
    """The user's data folder, for what a profile keeps between turns (indexes, memory)."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Sections of the user's own config that profiles read (``mcp``, ``web_search``)."""
    extra_tools: tuple[BaseTool, ...] = ()
    """Tools the user's own MCP servers add to this turn, beside the profile's own: the shared
    agent node binds them and the shared tool node runs them."""
    tool_approval: ToolApprovalMode = "ask"
    """How a call that needs the user's approval is settled: ``ask`` pauses the turn for the
    user's answer; ``approve`` and ``refuse`` decide for a run with nobody to ask."""
    consent_in_person: bool = False
    """Whether the front end running this turn puts a consent question for a participant with
    no seat to its own user (an editor that shows forms) and writes that answer in the consent
    book itself; otherwise such a participant cannot be asked, and nothing is posted."""


@dataclass(frozen=True, slots=True)
class WarmUpContext:
    """What a profile's warm-up may use: the user's data folder and the sections of their config
    that profiles read (the same ``data_dir`` and ``settings`` its turns see in
    :class:`TurnContext`), so what it starts is what the first turn then finds."""

    data_dir: Path | None
    settings: Mapping[str, Any] = field(default_factory=dict)


WarmUp = Callable[[WarmUpContext], None]
"""A profile's warm-up: called on the event loop that runs its turns, once the app (or another
front end) can take a question and again when a conversation of the profile opens. It starts
slow work in the background and returns at once; a failure there stays silent until a turn
needs what failed, which then says so."""


@dataclass(frozen=True, slots=True)
class CommandContext:
    """What a profile's command-line verb may use: the user's folders, the sections of their
    config that profiles read, and the output streams.

    ``data_dir`` holds the user's data (the conversation store, indexes a profile builds);
    ``config_dir`` the user's config folder, when there is one; ``settings`` the same sections
    a turn sees (``TurnContext.settings``: ``mcp``, ``web_search``). Verbs print their results
    on ``out`` and their one-line failures on ``err``.
    """

    data_dir: Path
    config_dir: Path | None
    out: TextIO
    err: TextIO
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ProfileCommand:
    """A command-line verb a profile brings, run as ``weaver-tui NAME ...``: the handler a
    :class:`ProfileVerb` in the profile's traits names.

    ``add_arguments`` fills the verb's own ``argparse`` parser; ``run`` does the work and
    returns the exit status (0 done, 1 failed, 2 usage). The verb never imports Textual.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, CommandContext], int]


@dataclass(frozen=True, slots=True)
class ProfileVerb:
    """A command-line verb as a profile's traits declare it: what ``weaver-tui --help`` lists,
    and where the :class:`ProfileCommand` that parses and runs it lives.

    ``handler`` is ``"package.module:NAME"``; the registry imports it only when the verb is
    used (:func:`agents.profiles.load_command`), so listing the verbs imports none of them.
    """

    name: str
    help: str
    handler: str


@dataclass(frozen=True, slots=True)
class RememberedItem:
    """One thing a profile remembers for the user: its id, its text and where it came from
    (``conversation_id``, which the app names by its title; ``origin`` when there is none)."""

    id: str
    text: str
    origin: str = ""
    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class RememberedItems:
    """What a profile keeps for the user across conversations (paper-pilot's facts), which the
    user can list and forget from the command palette.

    Both functions take the user's data folder and import what they need when called, so
    declaring them costs nothing at start-up.
    """

    title: str
    list_items: Callable[[Path], list[RememberedItem]]
    forget: Callable[[Path, str], bool]
    """Forget one item by id; ``False`` when there was no such item."""
    empty: str = "Nothing is remembered yet."


@dataclass(frozen=True, slots=True)
class ProfileSettings:
    """A section of the user's settings that a profile owns: ``section`` is its key in
    ``config.yaml`` (and ``WEAVER_<SECTION>__<KEY>`` in the environment), ``model`` names the
    pydantic model that validates it (``"package.module:NAME"``, imported when the settings
    load). A turn, a warm-up, a verb, a key and a panel of the profile read it as
    ``settings[section]``: plain values, only the keys the user set."""

    section: str
    model: str


@dataclass(frozen=True, slots=True)
class ProfileContext:
    """What a profile's key and panel read: the open conversation (``None`` before its first
    message), the store, the user's data folder and the sections of their settings that
    profiles read (``TurnContext.settings``)."""

    conversation_id: str | None
    store: ConversationStore | None
    data_dir: Path | None
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ProfileKey:
    """A key (and command palette entry) of a profile's own, shown only while the profile is
    open. ``handler`` (``"package.module:NAME"``, imported when it first runs) is a function of
    a :class:`ProfileContext` returning the one sentence the app shows (a coroutine function
    may be given; either must be quick: it runs on the app's event loop). Declared once, it is
    the key, the palette entry and, given ``slash``, the slash command of every front end."""

    command: str
    description: str
    handler: str
    key: str | None = None
    slash: str = ""
    """Its slash command's name (``/NAME`` in the composer, ``ask`` and ACP), the same
    handler run; empty: none."""
    front_ends: frozenset[FrontEnd] = EVERYWHERE
    """The front ends whose slash command runs it (see :mod:`agents.slash_commands`)."""


ReplyBadge = Callable[[Mapping[str, Any]], str | None]
"""A reply record's meta -> the badge its header shows (``None``: the model badge as usual)."""
ReplyTrace = Callable[[Mapping[str, Any]], str | None]
"""A reply record's meta -> its trace as Markdown (``None``: the reply has none)."""
ReplyStages = Callable[[Mapping[str, Any]], Sequence[Mapping[str, Any]]]
"""A reply record's meta -> the stages of its trace, in order, each a mapping with ``stage``,
``ms`` and, for a stage that asked a model, ``model`` (empty: the reply has no trace)."""


@dataclass(frozen=True, slots=True)
class ProfileTraits:
    """What the app needs to know to show a profile, declared as plain data.

    The app maps these to widgets and keys; it never tests a profile's name. A panel kind or a
    reply-block kind the app does not know is shown as nothing (a new kind needs its widget).
    """

    title: str = ""
    """The profile's name as the profile picker shows it (empty: its registry name)."""
    description: str = ""
    """One line on what the profile is for, under its title in the profile picker."""
    project_root: bool = False
    """The profile works on a project folder: a new conversation stores the folder it was
    started in (or ``--project-root``), the header names it."""
    participants: tuple[str, ...] = ()
    """The default speakers of a conversation with several people (empty: one user). With
    participants the app offers who speaks, whom they address, and one view per channel."""
    seats: bool = False
    """A conversation is a shared space its participants can join, one seat each, from their
    own browser: the palette's "Invite participants" serves it (as ``weaver-tui space
    open`` does) and "Close shared space" revokes their links."""
    private_messages: bool = False
    """Some messages are private to one participant: a conversation's title then comes only
    from a message everyone may read (else a neutral one naming the participants), since the
    title shows in every view and every list."""
    preview: bool = True
    """Whether a long conversation's last messages may be drawn before the rest is read (a
    profile whose views hide records from some readers needs the whole conversation first)."""
    panel: str | None = None
    """The panel kind shown above the composer: ``"project"`` (the project folder and the
    patches waiting for review), ``"speakers"`` (speaker, audience and channel bars), or none."""
    patch_review: bool = False
    """A turn may pause on a patch the user reviews before it is written."""
    stages: Mapping[str, str] = field(default_factory=dict)
    """Graph node -> the stage name the tool pane shows for it (others show the node's name)."""
    badge: str = ""
    """A short label the header shows for the profile (empty: the profile's name)."""
    reply_badge: ReplyBadge | None = None
    """The badge of one reply, read from its record meta (e.g. an intent and a strategy)."""
    reply_trace: ReplyTrace | None = None
    """How one reply was made, read from its record meta, shown by the palette's "Reply trace"
    (paper-pilot: stages, timings, models, queries, chunks, verdicts)."""
    reply_stages: ReplyStages | None = None
    """The same trace's stages as data, read from the record meta (``ask --json`` prints one
    ``trace`` line per stage)."""
    reply_blocks: tuple[str, ...] = ()
    """Blocks drawn under a reply from its record meta: ``"sources"`` (``meta["sources"]``: a
    list of ``{"title", "where"}``) and ``"artifacts"`` (``meta["artifacts"]``: a list of
    ``{"name", "language", "text"}``)."""
    continue_reply: bool = True
    """A reply may be continued from its text (the model gets it back and goes on); off for
    profiles whose graph reads the last message as a new question."""
    memory: RememberedItems | None = None
    """What the profile remembers across conversations, listed (and forgotten) from the
    palette's "Remembered items"."""
    welcome: str = ""
    """What an empty conversation says first: what to ask this profile, and how (the app adds
    the keys every profile shares)."""
    demo: str | None = None
    """The module of the profile's scripted demo (``create_demo_space(store)``,
    ``DEMO_TURNS``, ``DEMO_PARTICIPANTS``), played from the command palette."""
    commands: tuple[ProfileVerb, ...] = ()
    """Command-line verbs of this profile's own (``weaver-tui kb ...``, ``weaver-tui atom ...``),
    declared here so the command line lists them without importing the profile."""
    settings: ProfileSettings | None = None
    """The section of the user's settings this profile owns (validated with the others when
    the settings load; see :class:`ProfileSettings`)."""
    keys: tuple[ProfileKey, ...] = ()
    """Keys and palette commands of this profile's own (see :class:`ProfileKey`)."""
    panel_lines: str | None = None
    """A panel of the profile's own above the composer: ``"package.module:NAME"``, a function
    of a :class:`ProfileContext` returning the lines it shows (quick, as a key's handler),
    read again when a conversation opens, after each turn and after each of its keys."""


@dataclass(frozen=True, slots=True)
class Profile:
    """An agent profile.

    ``build_graph`` returns an *uncompiled* ``StateGraph`` whose state has at least
    ``messages: Annotated[list[AnyMessage], add_messages]`` and whose context schema is
    :class:`TurnContext`; the runtime compiles it once with the checkpointer.
    ``make_tools`` returns the profile's tools (the offline model reads their names and
    schemas to decide what to call). ``prompt_file`` is the shipped system prompt; a file of
    the same name in the user's config folder (``prompts/<name>.md``) overrides it.
    """

    name: str
    title: str
    description: str
    prompt_file: Path
    make_tools: Callable[[], list[BaseTool]]
    build_graph: Callable[[Profile], StateGraph[Any, TurnContext, Any, Any]]
    traits: ProfileTraits = field(default_factory=ProfileTraits)
    """What the app reads to show this profile (the same object as its ``traits.TRAITS``)."""
    offline: Mapping[str, Callable[[Any], Any]] = field(
        default_factory=dict, hash=False, compare=False
    )
    """This profile's offline demo behaviour: graph node name → a function of that node's
    state (``agents.offline.OfflineSteps``); the offline model plays it in those nodes."""
    warm_up: WarmUp | None = field(default=None, hash=False, compare=False)
    """What to start before the first question (paper-pilot's knowledge session); ``None``:
    nothing to start."""

    def system_prompt(self, config_dir: Path | None = None) -> str:
        if config_dir is not None:
            override = config_dir / "prompts" / f"{self.name}.md"
            if override.is_file():
                return override.read_text(encoding="utf-8")
        return self.prompt_file.read_text(encoding="utf-8")
