"""weaver-tui's settings: one ``Settings`` object from arguments, environment, an env file and YAML.

Precedence, highest first: values passed to ``load_settings`` (command-line options), ``WEAVER_*``
environment variables (``AGENT_LOG_REDACT_CONTENT`` too), the env file the user named
(``--env-file``, ``WEAVER_ENV_FILE`` or ``env_file`` in the YAML file; no ``.env`` is read
unless named), the YAML config file (``config.yaml`` in the user config folder, the file
``WEAVER_CONFIG`` names, or ``--config``), defaults.

Anything wrong with them (an invalid value, an unreadable or invalid YAML file, an unknown key in
it) raises ``ConfigError`` whose one line names the key and where it came from; the CLI turns
that into exit code 2. This module never imports Textual or the network stack, and imports
only what building the settings needs (YAML and the provider factory load when used), since
the app's launch time includes it. The app's first frame does not wait for it: see
:mod:`weaver_tui.settings.early`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from agents.errors import ConfigError
from agents.profiles import DEFAULT_PROFILE
from agents.providers.presets import PRESETS, PROVIDER_NAMES
from weaver_tui.settings.early import (
    APP_NAME,
    DEFAULT_THEME_SETTING,
    ENV_PREFIX,
    EarlySettings,
    default_config_file,
    default_data_dir,
)
from weaver_tui.settings.sources import (
    ENV_FILE_SETTING,
    choose_env_file,
    describe_origin,
    from_env_file,
    read_env_file,
    read_yaml_config,
)

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

REDACT_ALIAS_ENV = "AGENT_LOG_REDACT_CONTENT"

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

_yaml_data: ContextVar[dict[str, Any] | None] = ContextVar("weaver_yaml_data", default=None)
_dotenv_data: ContextVar[dict[str, Any] | None] = ContextVar("weaver_dotenv_data", default=None)


class McpServerEntry(BaseModel):
    """One of the user's own MCP servers (``mcp_servers.NAME`` in config.yaml)."""

    model_config = ConfigDict(extra="forbid")

    transport: Literal["stdio", "streamable_http"] = "stdio"
    """``stdio`` runs ``command``; ``streamable_http`` talks to ``url``."""
    command: str | None = None
    """The program that runs the server (stdio)."""
    args: list[str] = Field(default_factory=list)
    """Its arguments (stdio)."""
    env: dict[str, str] = Field(default_factory=dict)
    """Variables given to the server on top of the MCP SDK's minimal environment; no other
    variable of yours reaches it (stdio)."""
    cwd: str | None = None
    """The folder it runs in (stdio)."""
    url: str | None = None
    """The server's address (streamable_http)."""
    headers: dict[str, str] = Field(default_factory=dict)
    """HTTP headers sent with every request (streamable_http)."""
    profiles: list[str] | None = None
    """The profiles that get its tools; default: every profile that calls tools."""
    approve: Literal["ask", "always", "never"] = "ask"
    """``ask``: each call waits for your answer; ``always``: calls run; ``never``: refused."""
    tools: list[str] | None = None
    """Only these of its tools are offered (default: all)."""

    @model_validator(mode="after")
    def _reachable(self) -> McpServerEntry:
        if self.transport == "stdio" and not self.command:
            raise ValueError("a stdio server needs a command")
        if self.transport == "streamable_http" and not self.url:
            raise ValueError("a streamable_http server needs a url")
        return self

    @field_validator("profiles", mode="after")
    @classmethod
    def _known_profiles(cls, value: list[str] | None) -> list[str] | None:
        from agents.profiles import PROFILE_NAMES

        for name in value or ():
            if name not in PROFILE_NAMES:
                raise ValueError(
                    f"unknown profile {name!r}; use some of {', '.join(PROFILE_NAMES)}"
                )
        return value


LOCAL_SERVER_PORTS = {"ollama": 11434, "llama.cpp": 8080, "vllm": 8000}
"""Where Ollama, llama.cpp's server and vLLM listen by default."""


class Settings(BaseSettings):
    """Everything the app, the CLI verbs and the runtime may be configured with.

    Build it with ``load_settings()``: ``Settings()`` alone reads only the environment (tests
    use that to stay off the user's config).
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        env_file=None,
        env_ignore_empty=True,
        extra="ignore",
        validate_default=True,
    )

    provider: str = Field(default="auto")
    """Which provider answers: ``auto`` (the first provider whose API key is set, else the
    offline model), ``offline``, ``openai``, ``moonshot``, ``deepseek``, ``dashscope``,
    ``ollama`` or ``openai-compatible`` (any server; set ``base_url``)."""

    model: str = Field(default="")
    """The model name sent to the provider; empty means the provider's default model."""

    base_url: str | None = Field(default=None)
    """The provider's OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:8000/v1``; empty
    means the preset's address."""

    api_key: SecretStr | None = Field(default=None)
    """The API key. Empty means the provider's own variable (``OPENAI_API_KEY``,
    ``MOONSHOT_API_KEY``, ...). Never logged or shown."""

    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    """Sampling temperature (0-2); empty leaves it to the provider."""

    http_timeout: float = Field(default=60.0, gt=0)
    """Seconds to wait for the provider to connect and for each piece of a reply."""

    data_dir: Path = Field(default_factory=default_data_dir)
    """Where conversations, checkpoints and logs live (``WEAVER_DATA_DIR`` overrides)."""

    context_messages: int = Field(default=20, ge=1, le=1000)
    """How many records of the active path (besides the system prompt) a turn sends."""

    max_tool_rounds: int = Field(default=5, ge=0, le=50)
    """Tool rounds per turn before the model must answer without tools."""

    auto_summary: bool = Field(default=True)
    """Summarise the older part of a branch before a turn that would pass
    ``auto_summary_at`` of the model's context window (off per conversation in the palette)."""

    auto_summary_at: float = Field(default=0.9, gt=0.1, le=1.0)
    """The share of the context window the next turn may fill before the automatic summary."""

    local_servers: dict[str, int] = Field(default_factory=lambda: dict(LOCAL_SERVER_PORTS))
    """Local model servers looked for on 127.0.0.1 (name: port) when no key is set and the
    provider is ``auto``; ``{}`` looks for none."""

    theme: str = Field(default=DEFAULT_THEME_SETTING)
    """The Textual theme the app starts with (the app saves the one you pick)."""

    default_profile: str = Field(default=DEFAULT_PROFILE)
    """The agent profile of a new conversation: ``ide-helper``, ``mediator``,
    ``paper-pilot`` or ``atom-developer``."""

    tool_seconds: float = Field(default=30.0, gt=0, le=3600)
    """Time limit of one tool call; past it the call is stopped and the model is told."""

    tool_result_chars: int = Field(default=64_000, ge=1_000, le=10_000_000)
    """Size limit of a tool result the model reads; a longer one is cut, saying so."""

    max_message_bytes: int = Field(default=2_000_000, ge=1_000, le=100_000_000)
    """The largest message that is sent (bytes of UTF-8); a bigger one, typed, pasted or given
    to ``ask``, is refused with a sentence before anything is stored."""

    mcp: dict[str, Any] = Field(default_factory=dict)
    """The knowledge servers of the research profile: ``connections`` by name (``transport``: ``stdio`` with
    ``command``, ``args``, ``cwd``, ``env``; or ``streamable_http`` with ``url``) and
    ``server`` (which one to use). Empty: the embedded server on the user's own index."""

    mcp_servers: dict[str, McpServerEntry] = Field(default_factory=dict)
    """The user's own MCP servers by name; their tools join the profiles named in each entry
    (``profiles``; default every profile that calls tools), each call asked about first unless
    ``approve`` says otherwise. See :class:`McpServerEntry`."""

    web_search: dict[str, Any] = Field(default_factory=dict)
    """The research profile's optional web fallback: ``enabled``, ``url``, ``api_key``."""

    log_redact_content: bool = Field(default=False)
    """Log only the first characters and a sha256 of prompts and replies
    (``AGENT_LOG_REDACT_CONTENT=true`` also turns this on)."""

    log_level: LogLevel = Field(default="INFO")
    """The lowest level written to the JSON-lines log file."""

    env_file: Path | None = Field(default=None)
    """A dotenv file to read ``WEAVER_*`` and provider key variables from (``--env-file`` or
    ``WEAVER_ENV_FILE`` override it). Empty means none: a ``.env`` in the folder you work in
    is never read unless you name it here."""

    _config_file: Path | None = PrivateAttr(default=None)
    _env_values: dict[str, str] = PrivateAttr(default_factory=dict)
    _from_env_file: frozenset[str] = PrivateAttr(default=frozenset())

    @field_validator("base_url", mode="after")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        from agents.providers.presets import check_base_url

        return check_base_url(value) if value else None

    @field_validator("default_profile", mode="after")
    @classmethod
    def _known_profile(cls, value: str) -> str:
        from agents.profiles import PROFILE_NAMES

        if value not in PROFILE_NAMES:
            raise ValueError(f"unknown profile {value!r}; use one of {', '.join(PROFILE_NAMES)}")
        return value

    @field_validator("provider", mode="before")
    @classmethod
    def _known_provider(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().lower() or "auto"
            if value not in PROVIDER_NAMES:
                raise ValueError(
                    f"unknown provider {value!r}; use one of {', '.join(PROVIDER_NAMES)}"
                )
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("data_dir", mode="after")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        redact = os.environ.get(REDACT_ALIAS_ENV)
        agent_env = InitSettingsSource(
            settings_cls, {"log_redact_content": redact} if redact else {}
        )
        dotenv_source = InitSettingsSource(settings_cls, dict(_dotenv_data.get() or {}))
        yaml_source = InitSettingsSource(settings_cls, dict(_yaml_data.get() or {}))
        return (init_settings, env_settings, agent_env, dotenv_source, yaml_source)

    @property
    def config_file(self) -> Path:
        """The YAML file these settings were read from (and ``save_setting`` writes to)."""
        return self._config_file or default_config_file()

    def early(self) -> EarlySettings:
        """The values the first frame is drawn from, as these settings give them."""
        return EarlySettings(self.theme, Path(self.data_dir), self.default_profile)

    def provider_config(self) -> ProviderConfig:
        """The provider part of the settings, for ``agents.providers.make_chat_model``.

        Provider key variables (``MOONSHOT_API_KEY`` ...) are looked up in the environment
        and, below it, in the env file the user named. The config also says which of its
        values came from that file, so a key from elsewhere is never sent to an address the
        file chose (see ``agents.providers.resolve_provider``).
        """
        from agents.providers import ProviderConfig

        environ, file_names = _provider_environ(self._env_values)
        return ProviderConfig(
            provider=self.provider,
            model=self.model,
            base_url=self.base_url or None,
            api_key=self.api_key,
            temperature=self.temperature,
            timeout=self.http_timeout,
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
    """Settings from every source; ``overrides`` whose value is None are ignored (an option
    the user did not give). ``config_file`` is the ``--config`` path (``require_config``: it
    must exist, as the user named it) and ``env_file`` the ``--env-file`` path. Raises ``ConfigError`` with one line naming the key
    and file."""
    path = Path(config_file).expanduser() if config_file else default_config_file()
    data = read_yaml_config(path, set(Settings.model_fields), required=require_config)
    env_path = choose_env_file(env_file, data)
    env_values = read_env_file(env_path)
    given = {key: value for key, value in overrides.items() if value is not None}
    dotenv = _prefixed_settings(env_values)
    yaml_token, dotenv_token = _yaml_data.set(data), _dotenv_data.set(dotenv)
    try:
        env_file_setting: dict[str, Any] = {ENV_FILE_SETTING: env_path}
        settings = Settings(**given, **env_file_setting)
    except ValidationError as exc:
        raise _config_error(exc, given, env_path, env_values, path) from None
    finally:
        _yaml_data.reset(yaml_token)
        _dotenv_data.reset(dotenv_token)
    settings._config_file = path
    settings._env_values = env_values
    settings._from_env_file = frozenset(
        key for key in ("base_url", "api_key") if from_env_file(key, given, env_values, ENV_PREFIX)
    )
    return settings


def _prefixed_settings(env_values: Mapping[str, str]) -> dict[str, str]:
    """``WEAVER_MODEL=x`` in an env file as ``{"model": "x"}`` (any case); the file cannot
    name another env file."""
    prefix = ENV_PREFIX.lower()
    found = {
        name.lower().removeprefix(prefix): value
        for name, value in env_values.items()
        if name.lower().startswith(prefix)
    }
    found.pop(ENV_FILE_SETTING, None)
    return found


def _config_error(
    exc: ValidationError,
    given: dict[str, Any],
    env_file: Path | None,
    env_values: dict[str, str],
    config_file: Path,
) -> ConfigError:
    errors = exc.errors()
    first = errors[0]
    key = str(first["loc"][0]) if first["loc"] else "settings"
    origin = describe_origin(
        key, given, env_file, env_values, config_file, ENV_PREFIX, REDACT_ALIAS_ENV
    )
    reason = str(first["msg"]).removeprefix("Value error, ").rstrip(".")
    shown = "input" in first and not isinstance(first["input"], dict)
    if key != "api_key" and shown and repr(first["input"]) not in reason:
        reason += f" (got {first['input']!r})"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return ConfigError(f"Invalid value for {key} in {origin}: {reason}.{more}")


def save_setting(key: str, value: Any, *, config_file: Path | str | None = None) -> Path:
    """Write ``key: value`` into the YAML config file (created if missing), keeping the other
    keys; the value is validated first. Returns the file written."""
    path = Path(config_file).expanduser() if config_file else default_config_file()
    fields = set(Settings.model_fields)
    if key not in fields:
        raise ConfigError(f"Unknown setting {key!r}: it cannot be saved to {path}.")
    data = read_yaml_config(path, fields)
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    elif isinstance(value, Path):
        value = str(value)
    data[key] = value
    try:
        Settings.model_validate(data)
    except ValidationError as exc:
        reason = str(exc.errors()[0]["msg"]).rstrip(".")
        raise ConfigError(f"Invalid value for {key} (not saved to {path}): {reason}.") from None
    # only when saving: start-up reads the file through settings_sources
    import yaml  # type: ignore[import-untyped]

    _write_atomically(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return path


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
