"""weaver-tui's settings: one ``Settings`` object, in sections, from four sources.

Precedence, highest first: values passed to ``load_settings`` (command-line options),
``WEAVER_*`` environment variables (nested keys with ``__``; ``AGENT_LOG_REDACT_CONTENT`` too),
the env file the user named (``--env-file``, ``WEAVER_ENV_FILE`` or ``env_file`` in the YAML
file; no ``.env`` is read unless named), the YAML config file (``config.yaml`` in the user
config folder, the file ``WEAVER_CONFIG`` names, or ``--config``), defaults. The sources are
:mod:`weaver_tui.core.settings.sources`; the flat names of earlier versions (``model:``,
``WEAVER_THEME``) still work (:mod:`weaver_tui.core.settings.names`).

Anything wrong with them (an invalid value, an unreadable or invalid YAML file, an unknown key in
it) raises ``ConfigError`` whose one line names the key and where it came from; the CLI turns
that into exit code 2. This module never imports Textual or the network stack, and imports
only what building the settings needs (YAML and the provider factory load when used), since
the app's launch time includes it. The app's first frame does not wait for it: see
:mod:`weaver_tui.core.settings.early`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, PrivateAttr, SecretStr, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from agents.errors import ConfigError
from agents.providers.presets import PRESETS
from weaver_tui.core.settings.early import (
    APP_NAME,
    EarlySettings,
    default_config_file,
    default_data_dir,
)
from weaver_tui.core.settings.files import read_yaml_config
from weaver_tui.core.settings.knowledge_sections import (
    McpSection,
    WebSearchSection,
    agent_view,
    secret_values,
    url_secrets,
)
from weaver_tui.core.settings.names import (
    ENV_PREFIX,
    FLAT_NAMES,
    PROVIDER_NAME,
    dotted,
    nest_flat_names,
    place_of,
)
from weaver_tui.core.settings.profile_sections import owned_sections, with_profile_sections
from weaver_tui.core.settings.role_sections import RolesSection
from weaver_tui.core.settings.sections import (
    LoggingSection,
    McpServerEntry,
    ProviderSection,
    StorageSection,
    TurnsSection,
    UiSection,
)
from weaver_tui.core.settings.sources import CONFIG_FILE_ARGUMENT, SettingsSources

if TYPE_CHECKING:
    from agents.providers import ProviderConfig

__all__ = [
    "APP_NAME",
    "ENV_PREFIX",
    "Settings",
    "default_config_file",
    "default_data_dir",
    "load_settings",
    "save_setting",
]


class Settings(BaseSettings):
    """Everything the app, the CLI verbs and the runtime may be configured with.

    Build it with ``load_settings()``; ``Settings(**arguments)`` reads the same sources (the
    arguments may name ``config_file``), but raises pydantic's errors rather than one sentence.
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        env_file=None,
        env_ignore_empty=True,
        extra="ignore",
        validate_default=True,
    )

    provider: ProviderSection = Field(default_factory=ProviderSection)
    """Which provider and model answer, and how they are reached (``provider.name``,
    ``provider.model``, ``provider.base_url``, ``provider.api_key`` ...)."""

    ui: UiSection = Field(default_factory=UiSection)
    """The theme and the profile of a new conversation."""

    storage: StorageSection = Field(default_factory=StorageSection)
    """Where conversations, checkpoints and logs live (``storage.data_dir``)."""

    turns: TurnsSection = Field(default_factory=TurnsSection)
    """The limits of one turn: context sent, tool rounds and time, message size, summaries."""

    logging: LoggingSection = Field(default_factory=LoggingSection)
    """What the log file holds (``logging.level``, ``logging.redact_content``)."""

    mcp: McpSection = Field(default_factory=McpSection)
    """The knowledge servers of the research profile: ``connections`` by name (``transport``:
    ``stdio`` with ``command``, ``args``, ``cwd``, ``env``; or ``streamable_http`` with ``url``
    and ``headers``) and ``server`` (which one to use). Empty: the embedded server on the
    user's own index."""

    mcp_servers: dict[str, McpServerEntry] = Field(default_factory=dict)
    """The user's own MCP servers by name; their tools join the profiles named in each entry
    (``profiles``; default every profile that calls tools), each call asked about first unless
    ``approve`` says otherwise. See :class:`McpServerEntry`."""

    web_search: WebSearchSection = Field(default_factory=WebSearchSection)
    """The research profile's optional web fallback: ``enabled``, ``url``, ``api_key``,
    ``max_results``."""

    roles: RolesSection = Field(default_factory=RolesSection)
    """A model per role (``router``, ``critic``, ``structured``, ``summary``); each defaults
    to the turn's model."""

    env_file: Path | None = Field(default=None)
    """A dotenv file to read ``WEAVER_*`` and provider key variables from (``--env-file`` or
    ``WEAVER_ENV_FILE`` override it). Empty means none: a ``.env`` in the folder you work in
    is never read unless you name it here."""

    _config_file: Path | None = PrivateAttr(default=None)
    _env_values: dict[str, str] = PrivateAttr(default_factory=dict)
    _from_env_file: frozenset[str] = PrivateAttr(default=frozenset())

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        arguments = getattr(init_settings, "init_kwargs", {})
        return SettingsSources.build(settings_cls, arguments).ordered()

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        named = values.get(CONFIG_FILE_ARGUMENT)
        self._config_file = Path(named).expanduser() if named else default_config_file()

    @property
    def config_file(self) -> Path:
        """The YAML file these settings were read from (and ``save_setting`` writes to)."""
        return self._config_file or default_config_file()

    def profile_settings(self) -> dict[str, Any]:
        """What the profiles read (``mcp``, ``web_search``, and the sections the profiles own):
        plain values, secrets revealed, only the keys the user set."""
        owned = owned_sections(self, Settings)
        return {
            "mcp": agent_view(self.mcp),
            "web_search": agent_view(self.web_search),
            "roles": agent_view(self.roles),
            **{name: agent_view(section) for name, section in owned.items()},
        }

    def secrets(self, *, credentials_only: bool = False) -> list[str]:
        """The secrets these settings hold: the provider's key, the web search's key and the
        header and env values of every MCP server; ``credentials_only``: of those values, only
        the ones named like a credential (``Authorization``, ``API_TOKEN``)."""
        sections: list[BaseModel] = [self.provider, self.web_search, self.mcp, self.roles]
        sections += self.mcp_servers.values()
        sections += owned_sections(self, Settings).values()
        found = [
            value
            for section in sections
            for value in secret_values(section, credentials_only=credentials_only)
        ]
        # a credential written into an address (``user:password@``, ``?api-key=``) is one too
        return found + [
            value for section in [*sections, self.storage] for value in url_secrets(section)
        ]

    def early(self) -> EarlySettings:
        """The values the first frame is drawn from, as these settings give them."""
        return EarlySettings(
            self.ui.theme, Path(self.storage.data_dir), self.ui.default_profile, self.storage.url
        )

    def provider_config(self) -> ProviderConfig:
        """The provider part of the settings, for ``agents.providers.make_chat_model``.

        Provider key variables (``MOONSHOT_API_KEY`` ...) are looked up in the environment
        and, below it, in the env file the user named. The config also says which of its
        values came from that file, so a key from elsewhere is never sent to an address the
        file chose (see ``agents.providers.resolve_provider``).
        """
        from agents.providers import ProviderConfig

        environ, file_names = _provider_environ(self._env_values)
        section = self.provider
        return ProviderConfig(
            provider=section.name,
            model=section.model,
            base_url=section.base_url or None,
            api_key=section.api_key,
            temperature=section.temperature,
            timeout=section.http_timeout,
            environ=environ,
            from_env_file=self._from_env_file | file_names,
            env_file=str(self.env_file) if self.env_file else None,
        )


def _provider_environ(env_values: Mapping[str, str]) -> tuple[dict[str, str], frozenset[str]]:
    """The provider variables (env file below the environment), and those the file set."""
    names = {p.key_env for p in PRESETS.values() if p.key_env}
    names |= {p.base_url_env for p in PRESETS.values() if p.base_url_env}
    from_file = {k: v for k, v in env_values.items() if k in names and v}
    from_environ = {k: v for k, v in os.environ.items() if k in names and v}
    return {**from_file, **from_environ}, frozenset(set(from_file) - set(from_environ))


def load_settings(
    *,
    config_file: Path | str | None = None,
    env_file: Path | str | None = None,
    require_config: bool = False,
    **overrides: Any,
) -> Settings:
    """Settings from every source; ``overrides`` (flat names such as ``model``, or sections)
    whose value is None are ignored (an option the user did not give). ``config_file`` is the
    ``--config`` path (``require_config``: it must exist, as the user named it) and
    ``env_file`` the ``--env-file`` path. Raises ``ConfigError`` with one line naming the key
    and file."""
    arguments = {
        **overrides,
        "config_file": config_file,
        "env_file": env_file,
        "require_config": require_config,
    }
    cls: type[Settings] = Settings
    sources = SettingsSources.build(cls, arguments)
    known = set(Settings.model_fields) | set(FLAT_NAMES) | set(arguments) - set(overrides)
    if sources.other_sections(known, arguments):
        # a section a profile owns is set: only now are the profiles' traits read
        cls = settings_class()
        sources = SettingsSources.build(cls, arguments)
    try:
        # the sources already read, so the checks below ask the very ones that were used
        settings = cls(_build_sources=(sources.ordered(), {}))
    except ValidationError as exc:
        raise _config_error(exc, sources) from None
    settings._config_file = sources.config_file.path
    settings._env_values = sources.env_file.variables
    settings._from_env_file = frozenset(
        key for key in ("base_url", "api_key") if sources.from_env_file(("provider", key))
    )
    return settings


def settings_class() -> type[Settings]:
    """:class:`Settings` with the sections the registered profiles own
    (:mod:`weaver_tui.core.settings.profile_sections`)."""
    return with_profile_sections(Settings)


SECRET_KEYS = frozenset({"api_key", "headers", "env"})
"""Keys whose values (or whose entries' values) are credentials: never quoted in a message."""
SECRET_PATHS = frozenset({("storage", "url")})
"""Settings that may hold a password (a storage URL's says itself, redacted, in its reason)."""


def _config_error(exc: ValidationError, sources: SettingsSources) -> ConfigError:
    errors = exc.errors()
    first = errors[0]
    path = tuple(str(part) for part in first["loc"]) or ("settings",)
    name, origin = sources.origin(path)
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if first["type"] == "extra_forbidden":
        return ConfigError(
            f"Unknown setting {name!r} in {origin}; check its spelling against the README.{more}"
        )
    reason = str(first["msg"]).removeprefix("Value error, ").rstrip(".")
    shown = "input" in first and not isinstance(first["input"], dict)
    secret = SECRET_KEYS.intersection(path) or path[:2] in SECRET_PATHS
    if not secret and shown and repr(first["input"]) not in reason:
        reason += f" (got {first['input']!r})"
    return ConfigError(f"Invalid value for {name} in {origin}: {reason}.{more}")


def save_setting(key: str, value: Any, *, config_file: Path | str | None = None) -> Path:
    """Write ``key: value`` into the YAML config file (created if missing), keeping the other
    keys; the value is validated first. ``key`` is a section's key (``ui.theme``) or its flat
    name (``theme``); it is written in its section, and flat names already in the file move to
    their sections. Returns the file written."""
    path = Path(config_file).expanduser() if config_file else default_config_file()
    place = tuple(key.split(".")) if "." in key else place_of(key)
    if key == "provider":
        place = PROVIDER_NAME
    if not _is_setting(place):
        raise ConfigError(f"Unknown setting {key!r}: it cannot be saved to {path}.")
    cls = settings_class()
    data, _ = nest_flat_names(read_yaml_config(path, set(cls.model_fields) | set(FLAT_NAMES)))
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    elif isinstance(value, Path):
        value = str(value)
    _put(data, place, value)
    try:
        cls.model_validate(data)
    except ValidationError as exc:
        reason = str(exc.errors()[0]["msg"]).rstrip(".")
        raise ConfigError(
            f"Invalid value for {dotted(place)} (not saved to {path}): {reason}."
        ) from None
    # only when saving: start-up reads the file through the config file source
    import yaml  # type: ignore[import-untyped]

    _write_atomically(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return path


def _is_setting(place: tuple[str, ...]) -> bool:
    cls = settings_class()
    field = cls.model_fields.get(place[0])
    if field is None:
        return False
    section = field.annotation
    # a section of the app's (a Section) or of a profile's own (any pydantic model)
    is_section = isinstance(section, type) and issubclass(section, BaseModel)
    if len(place) == 1:
        return not is_section
    return len(place) == 2 and is_section and place[1] in getattr(section, "model_fields", {})


def _put(data: dict[str, Any], place: tuple[str, ...], value: Any) -> None:
    if len(place) == 1:
        data[place[0]] = value
        return
    section = data.get(place[0])
    if not isinstance(section, dict):
        section = data[place[0]] = {}
    section[place[1]] = value


def _write_atomically(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".yaml", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise ConfigError(f"Cannot write the config file {path}: {exc.strerror or exc}.") from None
