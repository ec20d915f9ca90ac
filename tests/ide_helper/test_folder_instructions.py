"""The AGENTS.md of the folders the ide-helper reads files in: for any generated folder layout
(files, empty files, links out of the root and inside it, large files, a sibling folder's own),
the instructions added for a file are exactly the readable ones from just below the file in
use down to the file's folder, inside the root, shallow to deep, once per turn (a real turn
reading them: tests/runtime/test_folder_instructions_turn.py)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path, PurePosixPath

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.folder_instructions import FolderInstructions, folders_between
from agents.project_instructions import MAX_CHARS

DEPTH = 4
KINDS = ("none", "file", "empty", "link_out", "link_in", "big", "hard_link")
READABLE = {"file", "big"}


def chain(level: int) -> PurePosixPath:
    return PurePosixPath(*[f"d{i}" for i in range(1, level + 1)]) if level else PurePosixPath(".")


def build(case: Path, kinds: list[str]) -> Path:
    """A root whose chain folder at each level holds an AGENTS.md of ``kinds[level]``, and a
    sibling folder ``side`` at each level with its own (which never applies to the chain)."""
    outside = case / "outside.md"
    outside.write_text("secret elsewhere", encoding="utf-8")
    root = case / "root"
    (root / chain(DEPTH)).mkdir(parents=True)
    (root / "shared.md").write_text("inside, through a link", encoding="utf-8")
    for level, kind in enumerate(kinds):
        folder = root / chain(level)
        (folder / "side").mkdir()
        (folder / "side" / "AGENTS.md").write_text(f"side {level}", encoding="utf-8")
        (folder / "code.py").write_text("x = 1\n", encoding="utf-8")
        target = folder / "AGENTS.md"
        if kind == "file":
            target.write_text(f"level {level}", encoding="utf-8")
        elif kind == "big":
            target.write_text(f"level {level} " + "y" * (MAX_CHARS + 10), encoding="utf-8")
        elif kind == "empty":
            target.write_text("  \n", encoding="utf-8")
        elif kind == "link_out":
            target.symlink_to(outside)
        elif kind == "link_in":
            target.symlink_to(root / "shared.md")
        elif kind == "hard_link":
            os.link(outside, target)
    return root


@settings(max_examples=120, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=DEPTH + 1, max_size=DEPTH + 1),
    read_at=st.integers(0, DEPTH),
    in_use_at=st.integers(0, DEPTH),
    then_at=st.integers(0, DEPTH),
)
def test_the_instructions_added_are_exactly_those_between_the_file_and_the_one_in_use(
    kinds: list[str], read_at: int, in_use_at: int, then_at: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = build(Path(folder), kinds)
        turn = FolderInstructions(deeper_than=chain(in_use_at).as_posix())
        file = (chain(read_at) / "code.py").as_posix()

        added = turn.for_file(root, file)

        expected = [i for i in range(in_use_at + 1, read_at + 1) if kinds[i] in READABLE]
        assert [item.relative_path for item in added] == [
            (chain(i) / "AGENTS.md").as_posix() for i in expected
        ]
        for item, level in zip(added, expected, strict=True):
            assert item.text.startswith(f"level {level}")
            assert len(item.text) <= MAX_CHARS
            assert item.cut == (kinds[level] == "big")
            assert f"for the folder {chain(level).as_posix()}/" in item.block()
        shown = "".join(item.text for item in added)
        assert "secret elsewhere" not in shown
        assert "side" not in shown
        assert "inside, through a link" not in shown

        # once per turn: a second read adds only what the first did not
        again = turn.for_file(root, (chain(then_at) / "code.py").as_posix())
        more = [i for i in range(in_use_at + 1, then_at + 1) if kinds[i] in READABLE]
        assert [item.relative_path for item in again] == [
            (chain(i) / "AGENTS.md").as_posix() for i in more if i not in expected
        ]


@settings(max_examples=100, deadline=None)
@given(
    file_parts=st.lists(st.sampled_from(["a", "b", "c"]), max_size=5),
    use_parts=st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
)
def test_the_folders_between_are_the_file_folders_below_the_one_in_use(
    file_parts: list[str], use_parts: list[str]
) -> None:
    file = PurePosixPath(*file_parts, "f.py")
    in_use = PurePosixPath(*use_parts) if use_parts else PurePosixPath(".")
    between = folders_between(file, in_use)
    below = file.parent.parts[: len(in_use.parts)] == in_use.parts or not use_parts
    if not below:
        assert between == []
        return
    depth = 0 if not use_parts else len(in_use.parts)
    assert between == [
        PurePosixPath(*file.parent.parts[:n]) for n in range(depth + 1, len(file.parent.parts) + 1)
    ]


def test_a_turn_that_turned_them_off_adds_none(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "AGENTS.md").write_text("src rules", encoding="utf-8")
    assert FolderInstructions(enabled=False).for_file(tmp_path, "src/a.py") == []
