"""The mediator demo on the offline model, headless: every turn's actions (tool, recipient)
match the scenario, private words never reach the other partner, and the views add up."""

from __future__ import annotations

from typing import Any

from agents.profiles.mediator.demo import (
    DEMO_PARTICIPANTS,
    DEMO_TURNS,
    create_demo_space,
    play_demo,
)
from agents.providers import ProviderConfig, make_chat_model
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, TokenDelta, ToolFinished
from agents.shared_space.space import participants_of, view_for
from agents.shared_space.statements import statement_board
from tests.runtime.helpers import finish_of


def test_the_scenario_has_both_partners_and_both_channels() -> None:
    assert len(DEMO_TURNS) >= 6
    assert {t.sender for t in DEMO_TURNS} == set(DEMO_PARTICIPANTS)
    assert {t.channel for t in DEMO_TURNS} == {"private", "shared"}
    tools = {a.tool for t in DEMO_TURNS for a in t.expected}
    assert tools == {"reply_privately", "post_to_shared", "propose_statement", "revise_statement"}
    assert [a.answer for t in DEMO_TURNS for a in t.answers_after].count("partly") == 1


async def test_demo_on_the_offline_model_takes_the_expected_actions_turn_by_turn(
    store: Any, runtime: AgentRuntime
) -> None:
    model = make_chat_model(ProviderConfig(provider="offline"))
    space = create_demo_space(store)
    assert participants_of(store.get_conversation(space.id)) == DEMO_PARTICIPANTS
    seen: list[tuple[int, str]] = []

    async def listen(index: int, turn: Any, event: Any) -> None:
        seen.append((index, type(event).__name__))

    played = await play_demo(runtime, model, space.id, on_event=listen)

    assert len(played) == len(DEMO_TURNS)
    for result in played:
        assert result.error is None
        assert result.misses == []
        assert tuple(result.actions) == result.turn.expected, (
            f"turn {result.index + 1} ({result.turn.sender}): {result.actions}"
        )
        assert isinstance(result.events[-1], RunFinished)
        assert any(isinstance(e, ToolFinished) for e in result.events)
    assert {i for i, _ in seen} == set(range(len(DEMO_TURNS)))
    assert ("TokenDelta" in {name for _, name in seen}) == any(
        isinstance(e, TokenDelta) for r in played for e in r.events
    )

    path = store.path_to_root(finish_of(played[-1].events).leaf_id)
    alex = view_for(path, "Alex")
    sam = view_for(path, "Sam")
    secret = DEMO_TURNS[1].content  # Sam's private debt message
    assert secret in [m.content for m in sam]
    assert all("8,000" not in m.content for m in alex)
    assert all(secret != m.content for m in alex)
    assert all(DEMO_TURNS[2].content != m.content for m in sam)  # Alex's private frustration
    shared_posts = [m for m in alex if m.author == "Mediator" and m.visibility == "shared"]
    assert shared_posts
    assert shared_posts == [m for m in sam if m.author == "Mediator" and m.visibility == "shared"]
    assert len(shared_posts) == sum(
        1 for t in DEMO_TURNS for a in t.expected if a.recipient == "shared"
    )
    # one statement round: proposed, one critique, revised, both agree; then a second proposal
    first, second = statement_board(store, space.id, "shared")
    assert [v.number for v in first.versions] == [1, 2]
    assert first.agreed is not None
    assert first.agreed.number == 2
    assert second.agreed is None
    critique = next(a.critique for t in DEMO_TURNS for a in t.answers_after if a.critique)
    assert all(critique not in m.content for m in [*alex, *sam] if m.author == "Mediator")
    tool_records = [r for r in path if r.role == "tool" and r.meta.get("name") == "reply_privately"]
    assert all(r.meta.get("visibility") in DEMO_PARTICIPANTS for r in tool_records)
