"""A role's model picked in the app (:mod:`weaver_tui.core.role_choices`): for any role, any
preset and any model name, the choice either becomes the role's section or is refused in one
sentence with nothing set; the configured provider's key and address go with it only when it
names that same provider (a key never travels to a provider it was not given for); an empty
model gives the role back to the turn's model; every other role keeps what it had."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from agents.errors import ConfigError
from agents.providers import ProviderConfig
from agents.providers.presets import list_presets
from agents.role_models import ROLES
from weaver_tui.core.role_choices import RoleChoice, role_models, role_section, with_choices

CONFIGURED = ProviderConfig(provider="openai-compatible", model="fake-model",
                            base_url="http://127.0.0.1:9/v1", api_key=SecretStr("sk-turn"),
                            environ={})  # fmt: skip
PRESETS = [p.name for p in list_presets()]
BEFORE: dict[str, Any] = {"mcp": {}, "roles": {"critic": {"name": "ollama", "model": "qwen3:4b"}}}


@settings(max_examples=150, deadline=None)
@given(
    role=st.sampled_from(ROLES),
    provider=st.sampled_from(["", *PRESETS]),
    model=st.one_of(st.just(""), st.from_regex(r"[a-z][a-z0-9.:-]{0,15}", fullmatch=True)),
    base_url=st.one_of(st.none(), st.just("http://127.0.0.1:8/v1")),
)
def test_a_picked_role_is_set_refused_or_cleared_and_keys_stay_with_their_provider(
    role: str, provider: str, model: str, base_url: str | None
) -> None:
    choice = RoleChoice(role, provider, model, base_url)
    refused: ConfigError | None = None
    try:
        section = role_section(choice, CONFIGURED)
    except ConfigError as exc:
        refused = exc
    if refused is not None:
        assert "\n" not in refused.user_message
        assert model  # only a model that cannot be built is refused
        return
    after = with_choices(BEFORE, {role: section})
    others = {r: v for r, v in after["roles"].items() if r != role}
    assert others == {r: v for r, v in BEFORE["roles"].items() if r != role}
    assert after["mcp"] == BEFORE["mcp"]
    if not model:
        assert section is None
        assert role not in after["roles"]
        assert role_models(after)[role] == ("", "")
        return
    assert section is not None
    same = provider in ("", CONFIGURED.provider)
    assert ("api_key" in section) == same
    assert section.get("api_key") in (None, "sk-turn")
    assert section.get("base_url") == (base_url or (CONFIGURED.base_url if same else None))
    assert role_models(after)[role][1] == section["model"]


def test_a_role_that_does_not_exist_is_refused_by_name() -> None:
    with pytest.raises(ConfigError) as caught:
        role_section(RoleChoice("narrator", "ollama", "m"), CONFIGURED)
    assert "narrator" in caught.value.user_message
