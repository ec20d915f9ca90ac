"""Code the sandbox never ran is answered as not checked, at once, and never as a stub that
"no draft passed".

The class: every way the sandbox refuses to run any code (pyseccomp missing in this process,
libseccomp that the fork server cannot load, ...). The guarantee, held by the report's
``unchecked`` (set from the sandbox's own refusal, never from text) and the graph: the turn
ends after one validation with the reply, its record and its badge saying "not checked" and
why; no fix is asked for (none can help) and no verdict is claimed. A verdict word in the
badge is only ever what the checks established.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.traits import reply_badge
from agents.profiles.atom_developer.validation import avalidate, sandbox
from agents.profiles.atom_developer.verdict import artifact_name
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import atom_turn
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, SPEC, answer
from tests.support.fake_openai import FakeOpenAI

FOUND = sandbox.lockdown_settings()


def _missing_package() -> Any:
    return "the pyseccomp package is not installed"


def _missing_library() -> Any:
    assert isinstance(FOUND, dict)
    return {**FOUND, "libraries": {**FOUND["libraries"], "seccomp": "libmissing.so.9"}}


REFUSALS = [_missing_package, _missing_library]


@pytest.mark.parametrize("refusal", REFUSALS)
async def test_code_the_sandbox_refused_is_unchecked_and_never_valid(
    monkeypatch: pytest.MonkeyPatch, refusal: Callable[[], Any]
) -> None:
    monkeypatch.setattr(sandbox, "lockdown_settings", refusal)
    report = await avalidate(GOOD, SPEC, "Error 500\n", whole=True)
    assert report.unchecked.startswith("the atom sandbox cannot lock itself down")
    assert not report.valid
    assert report.as_dict()["unchecked"] == report.unchecked


@pytest.mark.parametrize("refusal", REFUSALS)
async def test_a_turn_whose_draft_could_not_be_run_says_not_checked_at_once(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
    refusal: Callable[[], Any],
) -> None:
    monkeypatch.setattr(sandbox, "lockdown_settings", refusal)
    runtime, store = atoms
    fake_openai.script(*[answer(GOOD, notes="All tests passed. VALID.")] * 4)
    turn = await atom_turn(runtime, store, REQUEST, model=openai_model())

    assert len(fake_openai.chat_requests) == 1  # no fix is asked for: none can help
    assert not turn.trace["valid"]
    assert not turn.trace["stub"]
    assert turn.trace["unchecked"].startswith("the atom sandbox cannot lock itself down")
    assert reply_badge(turn.reply.meta) == "not checked"
    assert turn.reply.content.startswith("**Not checked.**")
    names = [artifact["name"] for artifact in turn.reply.meta["artifacts"]]
    assert names == ["error_code_unchecked.py", "error_code_unchecked.yaml"]


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "valid": st.booleans(),
            "stub_valid": st.booleans(),
            "stub": st.booleans(),
            "unchecked": st.sampled_from(["", "the sandbox cannot lock itself down"]),
            "fixes": st.integers(0, 3),
        },
    )
)
def test_a_badge_claims_valid_only_for_checked_valid_work(trace: dict[str, Any]) -> None:
    badge = reply_badge({"atom_developer": trace}) or ""
    checked = (
        trace.get("stub_valid", trace.get("valid")) if trace.get("stub") else trace.get("valid")
    )
    established = bool(checked) and not trace.get("unchecked")
    if not established:
        assert not badge.startswith("valid")
        assert "safe" not in badge
    if trace.get("unchecked"):
        assert badge == "not checked"


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["", "name: error_code\n", "name: safe_stub\n", "name: Safe_Stub_2\n"]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_an_artifacts_name_says_only_what_the_checks_established(
    spec: str, stub: bool, valid: bool, unchecked: bool
) -> None:
    name = artifact_name(spec, stub, valid, unchecked)
    assert name.endswith("_unchecked") is unchecked
    assert name.endswith("_not_valid") is (not valid and not unchecked)
    assert name.startswith("safe_stub") is (stub and valid and not unchecked)
