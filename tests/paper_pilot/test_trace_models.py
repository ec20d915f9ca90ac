"""Each stage of paper-pilot's trace names the models its own calls asked: for any sequence of
stages, each making any calls on any models, a stage's ``model`` is the models of the calls
made while it ran, each named once, in call order, and a stage that made no call names
none (the calls of an earlier stage, or a later one, are never its own)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from agents.profile import TurnContext
from agents.profiles.paper_pilot.role_models import role_calls
from agents.profiles.paper_pilot.stage_tools import trace_entry
from agents.providers import ProviderConfig, make_chat_model

NAMES = ("turn-model", "small-router", "small-critic")
MODELS = [
    make_chat_model(ProviderConfig(provider="openai-compatible", model=name,
                                   base_url="http://127.0.0.1:9/v1", api_key=SecretStr("k"))).model
    for name in NAMES
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(stages=st.lists(st.lists(st.integers(0, len(NAMES) - 1), max_size=4), max_size=8))
def test_a_stage_names_exactly_the_models_of_its_own_calls(stages: list[list[int]]) -> None:
    context = TurnContext(model=MODELS[0], conversation_id="c", user_message_id="u",
                          store=cast(Any, None), system_prompt="", project_root=Path("."))  # fmt: skip
    calls = role_calls(context)
    entries = []
    for n, made in enumerate(stages):
        started = time.perf_counter()
        for index in made:
            calls.note(f"stage{n}", MODELS[index])
        entries.append(trace_entry(f"stage{n}", started, context))
    for entry, made in zip(entries, stages, strict=True):
        expected = list(dict.fromkeys(NAMES[i] for i in made))
        assert entry.get("model") == (", ".join(expected) if expected else None)
