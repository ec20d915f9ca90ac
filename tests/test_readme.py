"""The README's keymap is the one the app ships, and it names the two set-up commands."""

from pathlib import Path

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
