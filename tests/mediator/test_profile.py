"""The mediator profile is registered under its name, with its tools and its prompt."""

from __future__ import annotations

from pathlib import Path

from agents.profile_registry import get_profile
from agents.profiles.mediator.graph import SYSTEM_PROMPT, space_prompt


def test_profile_tools_prompt_and_graph() -> None:
    profile = get_profile("mediator")
    assert profile.name == "mediator"
    assert [t.name for t in profile.make_tools()] == [
        "reply_privately",
        "post_to_shared",
        "propose_statement",
        "revise_statement",
        "set_agenda",
    ]
    assert profile.system_prompt() == SYSTEM_PROMPT
    for principle in ("neutral", "never reveal", "shared decisions"):
        assert principle in SYSTEM_PROMPT
    graph = profile.build_graph(profile).compile()
    assert set(graph.nodes) == {"__start__", "agent", "tools"}


def test_the_prompt_can_be_overridden_from_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "mediator.md").write_text("Be brief.")
    assert get_profile("mediator").system_prompt(tmp_path) == "Be brief."


def test_space_prompt_names_participants_and_the_speaker() -> None:
    text = space_prompt("Base.", ("Alex", "Sam", "Kim"), "Kim", "Kim")
    assert text.splitlines()[-2:] == [
        "Participants: Alex, Sam, Kim",
        "Now speaking: Kim, privately to you (Alex and Sam cannot see it).",
    ]
