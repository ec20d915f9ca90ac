"""The shared role models (:mod:`agents.role_models`), over real HTTP with the real
``ChatOpenAI`` client: for any combination of roles set, unset and failing and any order of
calls, each call asks the right model (the role's while it works, the turn's otherwise), a
failing role is said exactly once, and the models asked are recorded in call order."""

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
from agents.role_models import ROLES, RoleCalls, role_config
from tests.support.fake_openai import FakeOpenAI

TURN_MODEL = "fake-model"
State = Literal["unset", "live", "failing"]


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
            roles[role] = {"name": "openai-compatible", "model": f"{role}-model",
                           "base_url": live_url if state == "live" else dead_url,
                           "api_key": f"sk-{role}"}  # fmt: skip
    return {"roles": roles}


def turn_model(base_url: str) -> BaseChatModel:
    config = ProviderConfig(provider="openai-compatible", model=TURN_MODEL, base_url=base_url,
                            api_key=SecretStr("sk-turn"))  # fmt: skip
    return make_chat_model(config).model


async def ask(model: BaseChatModel) -> str:
    return str((await model.ainvoke("hello")).content)


@settings(max_examples=40, deadline=None)
@given(
    states=st.fixed_dictionaries({role: st.sampled_from(["unset", "live", "failing"]) for role in ROLES}),
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
            await calls.call(role, f"step{n}", ask)
        return calls

    calls = asyncio.run(run())

    expected = [
        f"{role}-model" if role is not None and states[role] == "live" else TURN_MODEL
        for role in order
    ]
    assert [body["model"] for body in server.chat_bodies] == expected
    assert [a.model for a in calls.asked] == expected
    assert [a.step for a in calls.asked] == [f"step{n}" for n in range(len(order))]
    failing_called = [r for r in dict.fromkeys(order) if r is not None and states[r] == "failing"]
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
