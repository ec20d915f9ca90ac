"""The ``weaver-tui`` command's entry point: the headless command line
(:mod:`weaver_tui.core.cli`) with the two Textual apps it may start, the chat app (no verb) and a
participant's seat (``space seat``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from weaver_tui.core.cli import main as run_command
from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError
from weaver_tui.core.cli.terminal_apps import TerminalApps

if TYPE_CHECKING:
    from weaver_tui.app import WeaverApp
    from weaver_tui.core.services import Services


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(argv, TerminalApps(chat=_make_app, seat=_run_seat))


def _make_app(services: Services, args: argparse.Namespace) -> WeaverApp:
    try:
        from weaver_tui.app import make_app
    except ImportError as exc:
        raise CliError(f"the Textual app is not available ({exc})") from None
    return make_app(
        services,
        profile=args.profile,
        conversation_id=args.conversation,
        project_root=args.project_root.resolve() if args.project_root else None,
    )


def _run_seat(args: argparse.Namespace) -> int:
    from storage.backend import StorageTarget
    from storage.store import StorageError
    from weaver_tui.core.services import STORAGE_URL_VARIABLE
    from weaver_tui.seat_app import SeatApp

    try:  # the host hands its storage.url down in the environment, never on a command line
        target = StorageTarget(args.data_dir, os.environ.get(STORAGE_URL_VARIABLE) or None)
    except StorageError as exc:
        raise CliError(str(exc), EXIT_CONFIG) from None
    if not target.is_postgres and not target.sqlite_path.is_file():
        raise CliError(f"no conversation database in {args.data_dir}", EXIT_CONFIG)
    SeatApp(
        target, args.space_conversation, args.participant, max_bytes=args.max_message_bytes
    ).run()
    return 0
