"""The store verbs of the ``weaver-tui`` command: ``conversations``, ``search``, ``export``,
``import``.

Everything they print passes :func:`~storage.printable.printable` (titles and text come
from imports and providers); an export without ``--output`` is written to stdout, and an import
reads a folder, a one-file stream or stdin, once per source unless ``--again``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from storage.printable import printable
from weaver_tui.core.cli.errors import EXIT_CONFIG, CliError

if TYPE_CHECKING:
    from weaver_tui.core.services import Services


def list_conversations(services: Services, *, as_json: bool = False) -> int:
    for c in services.store.list_conversations():
        if as_json:
            print(
                json.dumps(
                    {
                        "id": c.id,
                        "title": c.title,
                        "profile": c.profile,
                        "created_at": c.created_at.isoformat(),
                        "updated_at": c.updated_at.isoformat(),
                    }
                )
            )
            continue
        updated = c.updated_at.strftime("%Y-%m-%d %H:%M")
        print(printable(f"{c.id}  {c.profile:<14}  {updated}  {c.title}"))
    return 0


def search_conversations(services: Services, args: argparse.Namespace) -> int:
    """The app's full-text search over every branch: one line per match (its conversation and
    message ids first), or one JSON object with ``--json``; none found exits 1, as grep."""
    if not args.query.strip():
        raise CliError("the search is empty: give the words to find", EXIT_CONFIG)
    if not 0 < args.limit <= 10_000:
        raise CliError("--limit must be between 1 and 10000", EXIT_CONFIG)
    hits = services.store.search(args.query, limit=args.limit)
    for hit in hits:
        if args.json:
            print(
                json.dumps(
                    {
                        "conversation_id": hit.conversation_id,
                        "conversation_title": hit.conversation_title,
                        "message_id": hit.message_id,
                        "role": hit.role,
                        "snippet": hit.snippet,
                    }
                )
            )
        else:
            snippet = " ".join(hit.snippet.split())
            print(printable(f"{hit.conversation_id}  {hit.message_id}  {hit.role:<9}  {snippet}"))
    return 0 if hits else 1


def export(services: Services, args: argparse.Namespace) -> int:
    store = services.store
    conversation = store.get_conversation(args.conversation_id)
    if args.format == "md":
        text = store.export_markdown(conversation.id)
        if args.output:
            _write_file(args.output, text)
            print(printable(f"exported to {args.output}"), file=sys.stderr)
        else:
            sys.stdout.write(printable(text if text.endswith("\n") else text + "\n"))
        return 0
    output: Path | None = args.output
    if output is not None and output.is_dir():  # the two-file folder, inside it
        path = store.export_jsonl(conversation.id, output)
        print(printable(f"exported to {path}"), file=sys.stderr)
        return 0
    stream = _jsonl_stream(services, conversation.id)
    if output is None:  # one stream on stdout, the conversation's line first
        sys.stdout.write(stream)
        return 0
    _write_file(output, stream)
    print(printable(f"exported to {output}"), file=sys.stderr)
    return 0


def _jsonl_stream(services: Services, conversation_id: str) -> str:
    """The conversation as one JSONL stream, the conversation's line first."""
    import tempfile

    from weaver_tui.core.jsonl_stream import folder_to_stream

    with tempfile.TemporaryDirectory(prefix="weaver-export-") as name:
        folder = services.store.export_jsonl(conversation_id, Path(name) / "export")
        return folder_to_stream(folder)


def _write_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole, or fail with one sentence naming it."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(
            f"cannot write {path} ({exc.strerror or exc}); give a file in a folder that exists"
        ) from None


def import_conversation(services: Services, args: argparse.Namespace) -> int:
    """Import a folder, a one-file stream, or ``-`` (a stream on stdin); once per source."""
    from weaver_tui.core.jsonl_stream import (
        MAX_STREAM_BYTES,
        StreamError,
        folder_source_id,
        stream_as_folder,
        stream_meta,
    )

    store = services.store
    source: Path = args.path
    root = args.import_project_root
    if root is not None and not root.is_dir():
        raise CliError(f"{root} is not a folder; give the project folder to work in", 2)
    stream: str | None = None
    if str(source) != "-" and not source.exists():
        raise CliError(
            f"cannot import {source}: it does not exist; give an export file or folder",
            EXIT_CONFIG,
        )
    if str(source) == "-":
        stream = sys.stdin.read(MAX_STREAM_BYTES + 1)
    elif source.is_file() and source.name not in ("meta.json", "messages.jsonl"):
        stream = source.read_text(encoding="utf-8", errors="replace")
    try:
        if stream is not None:
            found = stream_meta(stream).get("id")
            source_id = found if isinstance(found, str) else ""
        else:
            source_id = folder_source_id(source.parent if source.is_file() else source)
    except (StreamError, ValueError) as exc:
        raise CliError(f"cannot import {source}: {exc}", EXIT_CONFIG) from None
    # Only an earlier import counts: the conversation the export was made from (in this
    # store, say) was never imported, so its export imports as a copy.
    earlier = next(
        (c for c in store.list_conversations()
         if source_id and c.meta.get("imported_from") == source_id),
        None,
    )  # fmt: skip
    if earlier is not None and not args.again:
        print(
            printable(
                f"already imported as {earlier.id} ({earlier.title}); skipped: --again imports "
                "another copy"
            ),
            file=sys.stderr,
        )
        return 0
    try:
        if stream is not None:
            with stream_as_folder(stream) as folder:
                conversation = store.import_jsonl(folder)
        else:
            conversation = store.import_jsonl(source)
    except StreamError as exc:
        raise CliError(f"cannot import {source}: {exc}", EXIT_CONFIG) from None
    if source_id:
        conversation = store.update_conversation_meta(conversation.id, imported_from=source_id)
    if root is not None:
        conversation = services.store.update_conversation_meta(
            conversation.id, project_root=str(root.resolve())
        )
    print(printable(f"{conversation.id}  {conversation.profile}  {conversation.title}"))
    return 0
