"""The shared role models (:mod:`agents.role_models`), over real HTTP with the real
``ChatOpenAI`` client: for any combination of roles set, unset, unreachable and answering
unusably, and any order of calls, each call asks the right model (the role's while it works,
the turn's otherwise, and after an unusable answer at once), the caller never gets an
unusable answer of a role, a failing role is said exactly once, and the models asked are
recorded in call order."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from agents.providers import ProviderConfig, make_chat_model
from agents.role_models import ROLES, RoleCalls, model_label, role_config
from tests.support.fake_openai import FakeOpenAI
from tests.support.loop_builds import recording_loops

TURN_MODEL = "fake-model"
State = Literal["unset", "live", "failing", "unusable"]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI().start()
    try:
        yield fake
    finally:
        fake.stop()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def roles_settings(states: dict[str, State], live_url: str, dead_url: str) -> dict[str, Any]:
    roles: dict[str, Any] = {}
    for role, state in states.items():
        if state != "unset":
            roles[role] = {"name": "openai-compatible",
                           "model": f"{role}-{'bad' if state == 'unusable' else 'model'}",
                           "base_url": dead_url if state == "failing" else live_url,
                           "api_key": f"sk-{role}"}  # fmt: skip
    return {"roles": roles}


def turn_model(base_url: str) -> BaseChatModel:
    config = ProviderConfig(provider="openai-compatible", model=TURN_MODEL, base_url=base_url,
                            api_key=SecretStr("sk-turn"))  # fmt: skip
    return make_chat_model(config).model


async def ask(model: BaseChatModel) -> tuple[str, str]:
    return model_label(model), str((await model.ainvoke("hello")).content)


def unusable(answer: tuple[str, str]) -> str | None:
    """A model named ``*-bad`` answers, but not usably (as a structured call's no-answer)."""
    return "no answer in the schema" if answer[0].endswith("-bad") else None


@settings(max_examples=40, deadline=None)
@given(
    states=st.fixed_dictionaries({role: st.sampled_from(["unset", "live", "failing", "unusable"])
                                  for role in ROLES}),
    order=st.lists(st.sampled_from([*ROLES, None]), min_size=1, max_size=6),
)  # fmt: skip
def test_each_call_asks_the_right_model_and_a_failing_role_is_said_once(
    server: FakeOpenAI, states: dict[str, State], order: list[str | None]
) -> None:
    server.reset()
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    said: list[tuple[str, str]] = []

    async def run() -> RoleCalls:
        calls = RoleCalls(
            roles_settings(states, server.base_url, dead),
            turn_model(server.base_url),
            lambda step, sentence: said.append((step, sentence)),
        )
        for n, role in enumerate(order):
            answer = await calls.call(role, f"step{n}", ask, unusable)
            assert unusable(answer) is None  # the caller never gets a role's unusable answer
        return calls

    calls = asyncio.run(run())

    expected: list[str] = []  # the models asked, in order
    tried: set[str] = set()
    for role in order:
        state = states[role] if role is not None else "unset"
        if state == "live":
            expected.append(f"{role}-model")
            continue
        if state == "unusable" and role not in tried:
            expected.append(f"{role}-bad")  # asked once, then the turn's model
        if role is not None:
            tried.add(role)
        expected.append(TURN_MODEL)
    assert [body["model"] for body in server.chat_bodies] == expected
    assert [a.model for a in calls.asked] == expected
    failing_called = [r for r in dict.fromkeys(order)
                      if r is not None and states[r] in ("failing", "unusable")]  # fmt: skip
    first_steps = [f"step{order.index(r)}" for r in failing_called]
    assert [step for step, _ in said] == first_steps  # said on the call that found it failing
    assert calls.said == [sentence for _, sentence in said]
    for role, (_, sentence) in zip(failing_called, said, strict=True):
        assert f"the {role} model failed" in sentence
        assert "turn's model" in sentence
        assert "\n" not in sentence


def test_a_turn_model_that_fails_is_not_hidden(server: FakeOpenAI) -> None:
    """The fallback is for a role's model only: the turn's own failure is the caller's."""
    dead = f"http://127.0.0.1:{closed_port()}/v1"

    async def run() -> None:
        calls = RoleCalls(roles_settings({"critic": "failing"}, server.base_url, dead),
                          turn_model(dead))  # fmt: skip
        await calls.call("critic", "critic", ask)

    with pytest.raises(Exception):  # noqa: B017,PT011 (whatever the client raises)
        asyncio.run(run())


@settings(max_examples=100, deadline=None)
@given(
    given_keys=st.fixed_dictionaries(
        {}, optional={k: st.one_of(st.none(), st.just(""), st.text(min_size=1, max_size=5))
                      for k in ("name", "model", "base_url", "api_key")}),
    role=st.sampled_from(ROLES),
)  # fmt: skip
def test_a_role_is_set_only_by_a_model_of_its_own(given_keys: dict[str, Any], role: str) -> None:
    """A role is set when its section names a provider, a model or an address (a key alone
    sets nothing), and never by another role's section."""
    found = role_config({"roles": {role: given_keys}}, role)
    names = any(given_keys.get(k) for k in ("name", "model", "base_url"))
    assert (found is not None) == names
    if found is not None:
        assert found == {k: given_keys.get(k) for k in ("name", "model", "base_url", "api_key")}
    other = next(r for r in ROLES if r != role)
    assert role_config({"roles": {role: given_keys}}, other) is None


@pytest.mark.parametrize("role", ROLES)
def test_a_roles_model_is_built_off_the_loop_once_per_loop(
    server: FakeOpenAI, role: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build makes HTTP clients (and may import the provider's stack): never on the loop
    that runs the turn, and once for all of a loop's calls of the role."""
    import agents.role_models

    recording, on_loop = recording_loops(make_chat_model)
    monkeypatch.setattr(agents.role_models, "make_chat_model", recording)
    server.reset()

    async def run() -> None:
        calls = RoleCalls(roles_settings({role: "live"}, server.base_url, ""),
                          turn_model(server.base_url))  # fmt: skip
        for n in range(3):
            await calls.call(role, f"step{n}", ask)

    asyncio.run(run())
    assert on_loop == [False]
    assert [body["model"] for body in server.chat_bodies] == [f"{role}-model"] * 3
