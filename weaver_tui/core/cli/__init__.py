"""The ``weaver-tui`` command: the Textual app, or a headless verb on the same runtime.

``weaver-tui`` starts the app; ``ask`` runs one turn and streams the reply to stdout (tool and
stage lines to stderr, ending with ``conversation: ID``); ``conversations``, ``export`` and
``import`` work on the store; ``acp`` is the profile's agent for an editor (ACP on stdio).
Expected failures print one line on stderr: exit code 2 for a configuration problem, 1 for
anything else that went wrong, 130 after Ctrl+C. The headless verbs never import Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Container, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import agents.profile_registry as profile_registry
from agents.errors import ConfigError
from storage.printable import printable
from weaver_tui import __version__
from weaver_tui.core.cli.errors import EXIT_CONFIG, EXIT_INTERRUPTED, CliError
from weaver_tui.core.cli.output import owns_the_terminal, printable_output
from weaver_tui.core.cli.space_verbs import add_space_parser, run_space_verb
from weaver_tui.core.cli.store_migrate import add_store_parser, migrate_store
from weaver_tui.core.cli.store_verbs import (
    export,
    import_conversation,
    list_conversations,
    search_conversations,
)
from weaver_tui.core.cli.terminal_apps import TerminalApps

if TYPE_CHECKING:
    from agents.profile import ProfileCommand, ProfileVerb
    from weaver_tui.core.services import Services


BUILTIN_VERBS = (
    "acp",
    "ask",
    "conversations",
    "export",
    "import",
    "search",
    "serve",
    "space",
    "store",
)
_OPTIONS_WITH_VALUE = frozenset(
    {
        "--config",
        "--env-file",
        "--provider",
        "--model",
        "--profile",
        "--conversation",
        "--project-root",
    }
)


def _first_verb(argv: Sequence[str]) -> str | None:
    """The verb ``argv`` names (the first word that is neither an option nor its value)."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in _OPTIONS_WITH_VALUE:
            skip = True
        elif not token.startswith("-"):
            return token
    return None


def profile_commands() -> dict[str, ProfileCommand]:
    """The command-line verbs the profiles declare, by name, read from their traits: a verb's
    handler is imported only when the verb's arguments are added or it runs."""
    return {verb.name: _deferred(verb) for verb in profile_registry.list_verbs()}


def _deferred(verb: ProfileVerb) -> ProfileCommand:
    from agents.profile import ProfileCommand

    return ProfileCommand(
        name=verb.name,
        help=verb.help,
        add_arguments=lambda parser: profile_registry.load_command(verb).add_arguments(parser),
        run=lambda args, context: profile_registry.load_command(verb).run(args, context),
    )


def _wants_profile_commands(argv: Sequence[str]) -> bool:
    """Whether parsing ``argv`` needs the profiles' verbs: only for a verb that is not built
    in, or for ``--help`` (which lists them)."""
    verb = _first_verb(argv)
    if verb is not None:
        return verb not in BUILTIN_VERBS
    return any(token in ("-h", "--help") for token in argv)


PROJECT_ROOT_HELP = (
    "the project folder a profile's file tools work in (default: the folder you start in)"
)


def build_parser(
    profile_verbs: Mapping[str, ProfileCommand] | None = None,
    *,
    arguments_for: Container[str] | None = None,
) -> argparse.ArgumentParser:
    """The command line's parser; of ``profile_verbs``, only those in ``arguments_for`` (all
    when it is ``None``) get their arguments, the others are listed by name and help."""
    parser = argparse.ArgumentParser(
        prog="weaver-tui",
        usage="%(prog)s [OPTIONS] [VERB ...]",
        description="Chat with agent profiles over a conversation tree. With no VERB, "
        "weaver-tui starts the app; a VERB runs without it.",
        epilog="`weaver-tui VERB --help` tells what a verb takes.",
    )
    parser.add_argument("--version", action="version", version=f"weaver-tui {__version__}")
    parser.add_argument("--config", type=Path, help="config file (default: the user config folder)")
    parser.add_argument(
        "--env-file",
        type=Path,
        metavar="PATH",
        help="read WEAVER_* and provider key variables from this dotenv file "
        "(no .env is read unless named)",
    )
    parser.add_argument("--provider", help="provider preset for this run (e.g. offline, openai)")
    parser.add_argument("--model", help="model name for this run")
    parser.add_argument("--profile", choices=profile_registry.PROFILE_NAMES, help="agent profile")
    parser.add_argument("--conversation", metavar="ID", help="open this conversation")
    parser.add_argument("--project-root", metavar="DIR", type=Path, help=PROJECT_ROOT_HELP)
    verbs = parser.add_subparsers(
        dest="verb",
        metavar="VERB",
        title="verbs (optional: with none, the app starts)",
        prog="weaver-tui [OPTIONS]",
    )

    ask = verbs.add_parser("ask", help="run one turn and stream the reply to stdout")
    ask.add_argument("text", help="the message to send")
    ask.add_argument(
        "--profile",
        dest="ask_profile",
        choices=profile_registry.PROFILE_NAMES,
        help="agent profile",
    )
    ask.add_argument(
        "--conversation", dest="ask_conversation", metavar="ID", help="continue this conversation"
    )
    ask.add_argument(
        "--project-root", dest="ask_project_root", metavar="DIR", type=Path, help=PROJECT_ROOT_HELP
    )
    ask.add_argument("--parent", metavar="MSG", help="reply below this message (fork)")
    ask.add_argument(
        "--edit",
        metavar="MSG",
        help="send the text as a new version of this message of yours, and answer it",
    )
    ask.add_argument(
        "--restore-files",
        action="store_true",
        help="with --edit, --parent or /regenerate: also revert the patches applied after "
        "the message gone back to",
    )
    ask.add_argument(
        "--yes",
        action="store_true",
        help="let a slash command that writes the project's files run (/undo, /redo)",
    )
    ask.add_argument(
        "--approve",
        action="store_true",
        help="run the calls of MCP tools that ask for approval (without it they are refused)",
    )
    ask.add_argument("--sender", help="who is speaking, for a profile with several speakers")
    ask.add_argument(
        "--attach",
        metavar="FILE",
        action="append",
        default=[],
        help="attach a text file or an image to the message (repeatable); piped input is attached too",
    )
    ask.add_argument(
        "--system",
        metavar="TEXT",
        help="instructions for this conversation, kept for its later turns ('' clears them)",
    )
    ask.add_argument(
        "--json",
        dest="json_events",
        action="store_true",
        help="print the turn's events as JSON lines on stdout (see the README for the keys)",
    )
    ask.add_argument(
        "--quiet",
        action="store_true",
        help="with --json: print only the result object at the end",
    )
    ask.add_argument(
        "--show-thinking",
        action="store_true",
        help="also print a thinking model's reasoning (to stderr, each line after 'thinking: ')",
    )

    listing = verbs.add_parser("conversations", help="list conversations, newest first (id first)")
    listing.add_argument("--json", action="store_true", help="one JSON object per conversation")

    search = verbs.add_parser("search", help="search every branch of every conversation")
    search.add_argument("query", help="words to find (full-text search, as the app's)")
    search.add_argument("--json", action="store_true", help="one JSON object per match")
    search.add_argument("--limit", type=int, default=50, help="the most matches (default: 50)")

    export = verbs.add_parser("export", help="export a conversation")
    export.add_argument("conversation_id", metavar="ID")
    export.add_argument("--format", choices=("md", "jsonl"), default="md")
    export.add_argument(
        "--output",
        type=Path,
        help="the file to write (jsonl: one stream; to an existing folder: meta.json and "
        "messages.jsonl in it); default: stdout",
    )

    imp = verbs.add_parser("import", help="import a conversation exported as jsonl")
    imp.add_argument(
        "path", type=Path, help="an export folder, a one-file JSONL stream, or - for stdin"
    )
    imp.add_argument("--again", action="store_true", help="import a copy of one imported before")
    imp.add_argument(
        "--project-root",
        dest="import_project_root",
        type=Path,
        help="the folder the imported conversation works in (an imported root is never used)",
    )

    add_store_parser(verbs)

    serve = verbs.add_parser("serve", help="serve the app to a web browser (textual-serve)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: local only)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")

    verbs.add_parser(
        "acp",
        help="be the profile's agent for an editor (Agent Client Protocol over stdin/stdout)",
    )
    add_space_parser(verbs)

    for name, command in (profile_verbs or {}).items():
        sub = verbs.add_parser(name, help=command.help)
        if arguments_for is None or name in arguments_for:
            command.add_arguments(sub)
        sub.set_defaults(profile_command=command)
    return parser


def main(argv: Sequence[str] | None = None, apps: TerminalApps | None = None) -> int:
    """Run the command ``argv``; ``apps`` starts the Textual apps (the chat with no verb, a
    seat), given by the entry point above this package (:mod:`weaver_tui.launch`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    verb = _first_verb(argv)
    action = _first_verb(argv[argv.index(verb) + 1 :]) if verb else None
    if owns_the_terminal(verb, action):
        return _main(argv, apps)
    with printable_output():  # nothing a headless verb writes carries an escape sequence
        return _main(argv, apps)


def _main(argv: list[str], apps: TerminalApps | None) -> int:
    try:
        extra = profile_commands() if _wants_profile_commands(argv) else None
        verb = _first_verb(argv)
        args = build_parser(extra, arguments_for={verb} if verb else ()).parse_args(argv)
        if args.verb is None:
            return launch_app(args, apps)
        if args.verb == "serve":
            return serve_in_browser(args)
        if args.verb == "acp":
            return serve_acp(args)
        if args.verb == "space":
            return space(args, apps)
        command = getattr(args, "profile_command", None)
        if command is not None:
            return run_profile_command(command, args)
        return asyncio.run(run_verb(args))
    except CliError as exc:
        return fail(str(exc), exc.code)
    except ConfigError as exc:  # a profile's verb that cannot be loaded
        return fail(exc.user_message, EXIT_CONFIG)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        return closed_pipe()


EXIT_CLOSED_PIPE = 141
"""The status a shell gives a command that a closed pipe stopped (128 + SIGPIPE)."""


def closed_pipe() -> int:
    """End quietly when whatever read the output (``| head -1``) has stopped reading: what
    is still buffered goes nowhere instead of into a second error at exit."""
    with suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return EXIT_CLOSED_PIPE


def fail(message: str, code: int) -> int:
    print(f"weaver-tui: {printable(_sentence_case(message))}", file=sys.stderr)
    return code


def _sentence_case(message: str) -> str:
    """``message`` starting in lower case, as every line after ``weaver-tui:`` does (a word
    in capitals, such as ``JSONL``, keeps them)."""
    if message[:1].isupper() and message[1:2].islower():
        return message[0].lower() + message[1:]
    return message


def settings_options(args: argparse.Namespace) -> dict[str, Any]:
    """What the command line says about settings: a ``--config`` it names must exist."""
    return {
        "config_file": args.config,
        "require_config": args.config is not None,
        "env_file": args.env_file,
        "provider": args.provider,
        "model": args.model,
    }


def open_services(args: argparse.Namespace) -> Services:
    """Settings (with the command line's overrides) and services; config errors exit 2."""
    from agents.errors import ConfigError
    from storage.store import StorageError

    try:
        from weaver_tui.core.services import Services
        from weaver_tui.core.settings.config import load_settings

        settings = load_settings(**settings_options(args))
        services = Services(settings)
        services.store  # noqa: B018 - open now so a bad database is reported here
        for sentence in services.rewind_notices:  # a rewind a killed process left half done
            print(sentence, file=sys.stderr)
    except ConfigError as exc:
        raise CliError(exc.user_message, EXIT_CONFIG) from None
    except StorageError as exc:
        raise CliError(str(exc), EXIT_CONFIG) from None
    except OSError as exc:  # the data folder or its log file cannot be written
        where = exc.filename or "the data folder"
        raise CliError(f"cannot write to {where}: {exc.strerror or exc}", EXIT_CONFIG) from None
    return services


def peek_services(args: argparse.Namespace) -> Services:
    """The app's services before its first paint: only the settings the first frame needs.

    The app validates every setting and opens the store right after the paint, and ends with
    their one-line failure and exit code 2 (``WeaverApp.startup_error``); an unreadable config
    file stops here (``weaver_tui.core.settings.early``).
    """
    from agents.errors import ConfigError

    try:
        from weaver_tui.core.services import Services
        from weaver_tui.core.settings.pending import PendingSettings

        pending = PendingSettings.peek(**settings_options(args))
    except ConfigError as exc:
        raise CliError(exc.user_message, EXIT_CONFIG) from None
    return Services(pending)


def launch_app(args: argparse.Namespace, apps: TerminalApps | None) -> int:
    from weaver_tui.core.heap import pause_collector, resume_collector

    if apps is None:
        raise CliError("the Textual app is not available here: start it with `weaver-tui`")
    # Importing Textual and painting the first frame only make long-lived objects: the app
    # turns the collector back on after its first frame (see weaver_tui.core.heap).
    pause_collector()
    try:
        services = peek_services(args)
        app = apps.chat(services, args)
        try:
            app.run()
        finally:
            services.close_store()
    finally:
        resume_collector()
    startup_error = getattr(app, "startup_error", None)
    if startup_error:  # a bad setting or database found right after the first paint
        raise CliError(startup_error, EXIT_CONFIG)
    return int(app.return_code or 0)


def serve_in_browser(args: argparse.Namespace) -> int:
    """Serve the app (with the options given before ``serve``) to a browser."""
    from weaver_tui.core.serve import ServeError, serve

    app_args: list[str] = []
    for option in (
        "config",
        "env_file",
        "provider",
        "model",
        "profile",
        "conversation",
        "project_root",
    ):
        value = getattr(args, option)
        if value is not None:
            if isinstance(value, Path):
                value = value.resolve()
            app_args += [f"--{option.replace('_', '-')}", str(value)]
    try:
        return serve(args.host, args.port, app_args, sys.stderr)
    except ServeError as exc:
        raise CliError(str(exc)) from None


def serve_acp(args: argparse.Namespace) -> int:
    """Speak ACP on stdin/stdout as ``--profile`` (default: the configured profile)."""
    from weaver_tui.core.acp_agent.stdio import NotConnected, serve_stdio

    services = open_services(args)
    try:
        asyncio.run(serve_stdio(services, args.profile or services.settings.ui.default_profile))
    except NotConnected as exc:
        raise CliError(str(exc), EXIT_CONFIG) from None
    finally:
        services.close_store()
    return 0


def space(args: argparse.Namespace, apps: TerminalApps | None) -> int:
    """``space open|close|join|seat``; a seat reads no settings (it is given its data
    folder), nor does joining one (it holds only the link)."""
    from storage.store import StorageError

    if args.space_action in ("seat", "join"):
        return run_space_verb(args, None, apps)
    services = open_services(args)
    try:
        return run_space_verb(args, services, apps)
    except StorageError as exc:
        raise CliError(str(exc)) from None
    finally:
        services.close_store()


def run_profile_command(command: ProfileCommand, args: argparse.Namespace) -> int:
    """Run a profile's own verb with the user's folders from the settings."""
    from agents.errors import ConfigError
    from agents.profile import CommandContext
    from weaver_tui.core.settings.config import load_settings

    try:
        settings = load_settings(**settings_options(args))
    except ConfigError as exc:
        raise CliError(exc.user_message, EXIT_CONFIG) from None
    if settings.storage.url:  # what a profile keeps beside the data folder goes there too
        os.environ["WEAVER_STORAGE__URL"] = settings.storage.url
    context = CommandContext(
        data_dir=settings.storage.data_dir,
        config_dir=settings.config_file.parent,
        out=sys.stdout,
        err=sys.stderr,
        settings=settings.profile_settings(),
    )
    return command.run(args, context)


async def run_verb(args: argparse.Namespace) -> int:
    from agents.errors import WeaverError
    from storage.store import StorageError

    services = open_services(args)
    try:
        if args.verb == "ask":
            from weaver_tui.core.cli.ask_verb import ask

            return await ask(services, args)
        if args.verb == "conversations":
            return list_conversations(services, as_json=args.json)
        if args.verb == "search":
            return search_conversations(services, args)
        if args.verb == "export":
            return export(services, args)
        if args.verb == "import":
            return import_conversation(services, args)
        if args.verb == "store":
            return migrate_store(services, args)
        raise CliError(f"unknown verb {args.verb!r}")
    except WeaverError as exc:
        code = EXIT_CONFIG if exc.code in ("config", "missing_key", "unknown_profile") else 1
        raise CliError(exc.user_message, code) from None
    except StorageError as exc:
        raise CliError(str(exc)) from None
    finally:
        await services.aclose()
