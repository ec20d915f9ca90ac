"""The ``roles`` section: a model of its own for a role (``router``, ``critic``,
``structured``, ``summary``), each with the provider section's keys. A role not set uses the
turn's model. ``roles: {critic: {name: ollama, model: "qwen3:4b"}}`` in config.yaml, or
``WEAVER_ROLES__CRITIC__MODEL=qwen3:4b``; ``api_key`` is passed on, never shown."""

from __future__ import annotations

from pydantic import Field, SecretStr

from weaver_tui.core.settings.sections import Section


class RoleModel(Section):
    """One role's model, in the provider section's terms."""

    name: str = ""
    """The provider preset (``ollama``, ``openai``, ``openai-compatible`` ...; empty: ``auto``)."""
    model: str = ""
    """The model name sent to it."""
    base_url: str | None = None
    """Its OpenAI-compatible endpoint (empty: the preset's)."""
    api_key: SecretStr | None = None
    """Its key (empty: the preset's variable); never shown."""


class RolesSection(Section):
    """The models of the turn's roles (``roles:``); each defaults to the turn's model."""

    router: RoleModel | None = Field(default=None)
    """Reads the question before the work (paper-pilot's router, atom-developer's request
    check)."""
    critic: RoleModel | None = Field(default=None)
    """Judges a draft (paper-pilot's critic)."""
    structured: RoleModel | None = Field(default=None)
    """The other structured stages (paper-pilot's plan, replan, ReAct steps, rewrite)."""
    summary: RoleModel | None = Field(default=None)
    """Every summary the app makes (of a conversation's older turns, by hand or automatic)."""
