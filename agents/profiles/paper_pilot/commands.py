"""paper-pilot's command-line verbs: ``weaver-tui kb add PATH [--collection NAME]``, ``kb list``.

The index lives in the user's data folder (``knowledge/index.sqlite``), where the embedded
knowledge server reads it; ``kb add`` shows its progress on stderr (on a terminal) and reads again only the
files that changed. ``kb list`` shows the collections the research turns search: those of the
knowledge server configured in ``mcp.connections`` (asked over MCP), else the local index's.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from agents.profile import CommandContext, ProfileCommand
from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from agents.profiles.paper_pilot.traits import KB_VERB, MEMORY_VERB
from storage.printable import printable


def index_path(data_dir: Path) -> Path:
    """Where the user's knowledge index lives."""
    return Path(data_dir) / "knowledge" / "index.sqlite"


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="kb_action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="index a folder of Markdown or text notes")
    add.add_argument("path", type=Path, help="the folder to index")
    add.add_argument("--collection", help="collection name (default: the folder's name)")
    actions.add_parser("list", help="list the collections")


def _run(args: argparse.Namespace, context: CommandContext) -> int:
    if args.kb_action == "list" and (context.settings.get("mcp") or {}).get("connections"):
        return _list_server(context)
    with KnowledgeIndex(index_path(context.data_dir)) as index:
        index.ensure_sample()
        if args.kb_action == "list":
            for row in index.collections():
                context.out.write(_collection_line(row))
            return 0
        folder: Path = args.path
        if not folder.is_dir():
            context.err.write(f"weaver-tui: {folder} is not a folder; give the folder to index.\n")
            return 2

        bar = ProgressBar(context.err)
        try:
            report = index.add_folder(folder, args.collection, bar.show)
        finally:
            bar.end()
        context.out.write(report.summary() + "\n")
        for skipped in report.skipped[:10]:
            context.err.write(f"skipped {skipped}\n")
        return 0


def _collection_line(row: Mapping[str, Any]) -> str:
    counts = [f"{row[k]} {k}" for k in ("documents", "chunks") if isinstance(row.get(k), int)]
    return "  ".join([printable(str(row["name"])), *counts]) + "\n"


async def _server_collections(
    settings: Mapping[str, Any], index: Path
) -> tuple[str, list[dict[str, Any]]]:
    from agents.profiles.paper_pilot.knowledge.client import KnowledgeClient, chosen_connection

    client = KnowledgeClient(*chosen_connection(settings, index))
    try:
        return client.name, await client.collections()
    finally:
        await client.aclose()


def _list_server(context: CommandContext) -> int:
    """The configured knowledge server's collections, or one sentence when it cannot say."""
    from agents.profiles.paper_pilot.knowledge.client import KnowledgeError

    try:
        name, rows = asyncio.run(
            _server_collections(context.settings, index_path(context.data_dir))
        )
    except KnowledgeError as exc:
        context.err.write(f"weaver-tui: {exc}\n")
        return 1
    context.out.write(f"knowledge server {printable(name)} (mcp.connections):\n")
    for row in rows:
        context.out.write(_collection_line(row))
    if not rows:
        context.out.write("(no collections)\n")
    return 0


class ProgressBar:
    """``kb add``'s progress on a terminal: one line redrawn in place, ended with a newline
    however the indexing ends (done, failed, interrupted). Written to a file or a pipe, where
    a redrawn line is only noise, it shows nothing."""

    WIDTH = 24

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.drawn = False
        self.enabled = _is_terminal(err)

    def show(self, done: int, total: int, name: str) -> None:
        if not self.enabled:
            return
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.err.write(f"\r[{bar}] {done}/{total} {name[:40]:<40}")
        self.err.flush()
        self.drawn = True

    def end(self) -> None:
        if self.drawn:
            self.err.write("\n")
            self.err.flush()
            self.drawn = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


KB_COMMAND = ProfileCommand(
    name=KB_VERB.name,
    help=KB_VERB.help,
    add_arguments=_add_arguments,
    run=_run,
)


def _memory_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="memory_action", metavar="ACTION", required=True)
    actions.add_parser("list", help="list the facts paper-pilot remembers")
    forget = actions.add_parser("forget", help="forget one fact")
    forget.add_argument("fact_id", type=int, metavar="ID")


def _memory_run(args: argparse.Namespace, context: CommandContext) -> int:
    from agents.profiles.paper_pilot.memory import open_memory

    with open_memory(context.data_dir) as memory:
        if args.memory_action == "list":
            for fact in memory.all():
                context.out.write(
                    f"{fact.id}  {fact.text}  (conversation {fact.conversation_id})\n"
                )
            return 0
        if memory.forget(args.fact_id):
            context.out.write(f"forgot fact {args.fact_id}\n")
            return 0
        context.err.write(f"weaver-tui: there is no fact {args.fact_id}; see `memory list`.\n")
        return 1


MEMORY_COMMAND = ProfileCommand(
    name=MEMORY_VERB.name,
    help=MEMORY_VERB.help,
    add_arguments=_memory_arguments,
    run=_memory_run,
)
