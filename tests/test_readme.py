"""The README's keymap is the one the app ships, and it names the two set-up commands."""

from pathlib import Path

import pytest

from weaver_tui.keymap import keymap_markdown

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_keymap_matches_the_shipped_keymap() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index("-->", text.index("<!-- keymap:start")) + len("-->")
    end = text.index("<!-- keymap:end -->")
    assert text[start:end].strip() == keymap_markdown()


def test_readme_names_the_two_setup_commands_and_they_exist() -> None:
    text = README.read_text(encoding="utf-8")
    root = README.parent
    for command in ("scripts/run", "scripts/test"):
        assert command in text
        assert (root / command).is_file()


def _shell_example_lines(text: str) -> list[str]:
    """The command lines of the README's ``sh`` blocks."""
    lines: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh" if not inside else False
        elif inside and line.strip():
            lines.append(line.strip())
    return lines


def test_every_command_example_runs_from_a_fresh_clone() -> None:
    """Nothing puts ``weaver-tui`` on PATH after the set-up commands: every example goes
    through ``scripts/run``, and what follows it is a command line the program accepts."""
    import shlex

    from weaver_tui.core.cli import build_parser, profile_commands

    text = README.read_text(encoding="utf-8")
    examples = _shell_example_lines(text)
    assert not [line for line in examples if line.startswith("weaver-tui")]
    parser = build_parser(profile_commands())
    concrete = [
        line for line in examples if line.startswith("scripts/run ") and not set("[|") & set(line)
    ]
    assert len(concrete) >= 5
    for line in concrete:
        words = [w.replace("ID", "7") for w in shlex.split(line.split("#")[0])[1:]]
        if words and words != ["--version"]:
            parser.parse_args(words)  # exits (fails the test) on a line it refuses
    for inline in ("`weaver-tui ask", "| weaver-tui ", "`weaver-tui --"):
        assert inline not in text


def test_the_atom_check_examples_pass_on_the_files_the_clone_ships(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``atom check`` line of the README runs as written from the clone's root and finds
    the atom valid (the files it names exist, and Ctrl+S names its files the same way)."""
    import shlex

    from weaver_tui.launch import main

    lines = [
        line
        for line in _shell_example_lines(README.read_text(encoding="utf-8"))
        if line.startswith("scripts/run atom check ") and not set("[|") & set(line)
    ]
    assert lines
    monkeypatch.chdir(README.parent)
    for line in lines:
        assert main(shlex.split(line)[1:]) == 0, capsys.readouterr()
