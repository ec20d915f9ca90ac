"""``weaver-tui store migrate``: copy the store between the SQLite file and a PostgreSQL server.

``--to URL`` copies the data folder's SQLite file to the server, ``--from URL`` the server to
the data folder's file; either without a URL takes ``storage.url`` (``WEAVER_STORAGE__URL``),
which keeps a password off the command line. The copy is idempotent and its counts are
checked (:mod:`storage.migrate`); the summary names the server without its password.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from storage.printable import printable
from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError

if TYPE_CHECKING:
    from weaver_tui.core.services import Services


def add_store_parser(verbs: Any) -> None:
    """``store migrate --to URL | --from URL``."""
    store = verbs.add_parser("store", help="move the store between SQLite and PostgreSQL")
    actions = store.add_subparsers(dest="store_action", metavar="ACTION", required=True)
    migrate = actions.add_parser(
        "migrate",
        help="copy every conversation, branch, seat and fact to or from a PostgreSQL server",
    )
    way = migrate.add_mutually_exclusive_group(required=True)
    way.add_argument(
        "--to",
        dest="migrate_to",
        nargs="?",
        const="",
        metavar="URL",
        help="copy the data folder's SQLite file to this server (default: storage.url)",
    )
    way.add_argument(
        "--from",
        dest="migrate_from",
        nargs="?",
        const="",
        metavar="URL",
        help="copy this server's store into the data folder's SQLite file (default: storage.url)",
    )


def migrate_store(services: Services, args: argparse.Namespace) -> int:
    from storage.migrate import PgSide, SqliteSide, migrate
    from storage.pg_url import check_storage_url

    to_server = args.migrate_to is not None
    url = (args.migrate_to if to_server else args.migrate_from) or services.storage.url
    if not url:
        raise CliError(
            "name the server: --to postgresql://user@host/db, or set WEAVER_STORAGE__URL",
            EXIT_CONFIG,
        )
    check_storage_url(url)
    sqlite_path = services.storage.sqlite_path
    if to_server and not sqlite_path.is_file():
        raise CliError(f"no conversation database in {services.data_dir} to copy", EXIT_CONFIG)
    if to_server:
        report = migrate(SqliteSide(sqlite_path), PgSide(url))
    else:
        report = migrate(PgSide(url), SqliteSide(sqlite_path))
    print(printable(report.summary()), file=sys.stderr)
    return 0
