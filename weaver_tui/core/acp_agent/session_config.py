"""A session's config options (ACP's successor of modes): its model and its profile.

- ``model`` (category ``model``): the model of the configured provider, one of the models the
  app's picker offers for it (its suggested models and the configured one). Another provider
  needs its own key and address, which only the user's settings give, so it is not offered.
- ``profile`` (category ``mode``): the profile of the session. A conversation belongs to one
  profile, so it changes only before the session's first prompt.
- ``project_instructions`` (a boolean, for a profile that works in a project folder): whether
  the project's ``AGENTS.md`` is sent (:mod:`agents.project_instructions`); kept with the
  conversation.

No model here takes a thinking level, so no ``thought_level`` option is offered.

A value is taken only when it is one of the option's own values (an allowlist): anything else,
or an option id not listed, is refused with one sentence and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from acp.schema import (
    SessionConfigBoolean,
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
)

from agents.profile_registry import list_traits
from agents.providers.presets import PRESETS
from storage.printable import printable
from weaver_tui.core.acp_agent.failures import turn_failure

ConfigOption = SessionConfigOptionSelect | SessionConfigOptionBoolean
MODEL = "model"
PROFILE = "profile"
PROJECT_INSTRUCTIONS = "project_instructions"


@dataclass(frozen=True, slots=True)
class ConfigChoices:
    """What a session may choose from, and what it has chosen."""

    provider: str
    model: str
    profile: str
    conversation_started: bool
    project_instructions: bool | None = None
    """Whether the project's ``AGENTS.md`` is sent (``None``: the profile works in no
    project, and the option is not offered)."""

    def models(self) -> list[str]:
        """The configured model first, then the provider's suggested models."""
        preset = PRESETS.get(self.provider)
        suggested = preset.suggested_models if preset is not None else ()
        found = [self.model]
        found += [m for m in suggested if m not in found]
        return found

    def profiles(self) -> list[str]:
        return [name for name, _ in list_traits()]

    def options(self) -> list[ConfigOption]:
        profiles = [(name, traits.title or name) for name, traits in list_traits()]
        found: list[ConfigOption] = [
            SessionConfigOptionSelect(
                id=MODEL,
                name="Model",
                category="model",
                type="select",
                current_value=self.model,
                options=[SessionConfigSelectOption(value=m, name=m) for m in self.models()],
            ),
            SessionConfigOptionSelect(
                id=PROFILE,
                name="Profile",
                description="Changes only before the session's first prompt.",
                category="mode",
                type="select",
                current_value=self.profile,
                options=[
                    SessionConfigSelectOption(value=name, name=title) for name, title in profiles
                ],
            ),
        ]
        if self.project_instructions is not None:
            found.append(
                SessionConfigOptionBoolean(
                    id=PROJECT_INSTRUCTIONS,
                    name="Project instructions (AGENTS.md)",
                    description="Send the project's AGENTS.md with each turn.",
                    type="boolean",
                    current_value=self.project_instructions,
                )
            )
        return found

    def checked(self, config_id: str, value: object) -> str | bool:
        """``value`` when it is one of ``config_id``'s values (and may be set now), else the
        one-sentence refusal as a request error."""
        options = self.options()
        option = next((o for o in options if o.id == config_id), None)
        if option is None:
            raise turn_failure(
                f"There is no option {printable(config_id)!r}: the options are "
                f"{', '.join(o.id for o in options)}.",
                "invalid_params",
            )
        if isinstance(option, SessionConfigBoolean):
            if not isinstance(value, bool):
                raise turn_failure(f"{config_id!r} is true or false.", "invalid_params")
            return value
        allowed = [c.value for c in option.options if isinstance(c, SessionConfigSelectOption)]
        if not isinstance(value, str) or value not in allowed:
            raise turn_failure(
                f"That is not a value of {config_id!r}: pick one of {', '.join(allowed)}.",
                "invalid_params",
            )
        if config_id == PROFILE and value != self.profile and self.conversation_started:
            raise turn_failure(
                "A conversation belongs to one profile: start a new session to use another.",
                "invalid_params",
            )
        return value
