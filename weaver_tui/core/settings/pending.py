"""The settings the launch hands to the app: drawn from at once, validated after the first paint.

:mod:`weaver_tui.core.settings.early` reads what the first frame needs without pydantic;
:class:`PendingSettings` keeps that and the arguments to validate everything later with
:func:`weaver_tui.core.settings.config.load_settings`, imported only then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from weaver_tui.core.settings.early import EarlySettings, peek_settings

if TYPE_CHECKING:
    from weaver_tui.core.settings.config import Settings


@dataclass
class PendingSettings:
    """Settings whose validation waits until after the first paint.

    ``early`` draws the first frame; :meth:`validate` runs ``load_settings`` with the same
    arguments (pydantic-settings, every source, every check) and returns the real
    :class:`~weaver_tui.core.settings.config.Settings` or raises ``ConfigError``.
    """

    early: EarlySettings
    config_file: Path | str | None = None
    env_file: Path | str | None = None
    require_config: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def peek(
        cls,
        *,
        config_file: Path | str | None = None,
        env_file: Path | str | None = None,
        require_config: bool = False,
        **overrides: Any,
    ) -> PendingSettings:
        early = peek_settings(
            config_file=config_file,
            env_file=env_file,
            require_config=require_config,
            **overrides,
        )
        return cls(early, config_file, env_file, require_config, dict(overrides))

    def validate(self) -> Settings:
        from weaver_tui.core.settings.config import load_settings

        return load_settings(
            config_file=self.config_file,
            env_file=self.env_file,
            require_config=self.require_config,
            **self.overrides,
        )
