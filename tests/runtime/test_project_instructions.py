"""The project's AGENTS.md: the nearest one inside the project root, cut when large, sent
headed as the project's and before the user's own instructions. Generated folder trees (with a
symlink that leads out of the root) and the reported cases."""

from __future__ import annotations

import uuid
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.instructions import HEADING, with_instructions
from agents.project_instructions import (
    MAX_CHARS,
    find_project_instructions,
    with_project_instructions,
)

DEPTH = 4


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    levels=st.sets(st.integers(0, DEPTH)),
    outside_link=st.sampled_from([None, *range(DEPTH + 1)]),
    sizes=st.integers(1, MAX_CHARS * 2),
)
def test_the_nearest_file_inside_the_root_is_read_and_cut_when_large(
    tmp_path: Path, levels: set[int], outside_link: int | None, sizes: int
) -> None:
    case = tmp_path / uuid.uuid4().hex
    outside = case / "outside"
    outside.mkdir(parents=True)
    (outside / "AGENTS.md").write_text("secret elsewhere", encoding="utf-8")
    root = case / "root"
    folders = [root / Path(*[f"d{i}" for i in range(level)]) for level in range(DEPTH + 1)]
    folders[-1].mkdir(parents=True)
    for level in levels:
        (folders[level] / "AGENTS.md").write_text(f"level {level} " + "x" * sizes, encoding="utf-8")
    if outside_link is not None and outside_link not in levels:
        (folders[outside_link] / "AGENTS.md").symlink_to(outside / "AGENTS.md")

    found = find_project_instructions(root, folders[-1])

    if not levels:
        assert found is None
        return
    nearest = max(levels)
    assert found is not None
    assert found.text.startswith(f"level {nearest} ")
    assert len(found.text) <= MAX_CHARS
    assert found.cut == (len(f"level {nearest} ") + sizes > MAX_CHARS)
    assert "secret elsewhere" not in found.text


def test_a_symlink_out_of_the_root_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "secret.md").write_text("secret", encoding="utf-8")
    root = tmp_path / "root"
    root.mkdir()
    (root / "AGENTS.md").symlink_to(tmp_path / "secret.md")
    assert find_project_instructions(root) is None
    assert find_project_instructions(root, tmp_path) is None  # a start outside is the root


def test_the_project_speaks_after_the_profile_and_before_the_user(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text(
        "Run `make test` before proposing a patch.", encoding="utf-8"
    )
    found = find_project_instructions(tmp_path)
    prompt = with_instructions(
        with_project_instructions("You are the ide-helper.", found), "Answer in French."
    )
    profile_at = prompt.index("You are the ide-helper.")
    project_at = prompt.index("Run `make test`")
    user_at = prompt.index(HEADING)
    assert profile_at < project_at < user_at
    assert "not the user's instructions" in prompt[:project_at]
    assert HEADING not in prompt[:project_at]
