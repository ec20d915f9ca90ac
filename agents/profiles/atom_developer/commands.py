"""atom-developer's command-line verb: ``weaver-tui atom check FILE.py [--spec FILE.yaml]
[--sample FILE] [--json]``.

It validates the atoms in ``FILE.py`` on all three levels and prints the report (Markdown, or
JSON with ``--json``). Exit status: 0 valid, 1 not valid, 2 a file that cannot be read.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.profile import CommandContext, ProfileCommand
from agents.profiles.atom_developer.traits import ATOM_VERB
from agents.profiles.atom_developer.validation import validate

MAX_FILE_BYTES = 256 * 1024


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="atom_action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate the atoms in a Python file")
    check.add_argument("file", type=Path, help="the Python file holding the atoms")
    check.add_argument("--spec", type=Path, help="a YAML spec validate_logic must agree with")
    check.add_argument("--sample", type=Path, help="a sample log the atoms are run on")
    check.add_argument("--json", action="store_true", help="print the report as JSON")


def _read(path: Path) -> str:
    """The UTF-8 text of ``path``; ``ValueError`` with one sentence when it cannot be had."""
    try:
        if not path.is_file():
            raise ValueError(f"{path} is not a file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(f"{path} is larger than {MAX_FILE_BYTES // 1024} KiB")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise ValueError(f"{path} cannot be read ({exc.strerror or exc})") from None


def _run(args: argparse.Namespace, context: CommandContext) -> int:
    try:
        code = _read(args.file)
        spec = _read(args.spec) if args.spec else None
        sample = _read(args.sample) if args.sample else ""
    except ValueError as exc:
        context.err.write(f"weaver-tui: {exc}.\n")
        return 2
    report = validate(code, spec, sample)
    if args.json:
        context.out.write(json.dumps(report.as_dict(), indent=2) + "\n")
    else:
        context.out.write(report.render() + "\n")
    return 0 if report.valid else 1


ATOM_COMMAND = ProfileCommand(
    name=ATOM_VERB.name,
    help=ATOM_VERB.help,
    add_arguments=_add_arguments,
    run=_run,
)
