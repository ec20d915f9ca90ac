"""The sections of the settings: each a small pydantic model that refuses keys it does not know.

``provider`` (which model answers and how it is reached), ``ui`` (what the app looks like and
opens with), ``storage`` (where data lives), ``turns`` (the limits of one turn), ``logging``,
and one entry of ``mcp_servers``. :class:`~weaver_tui.core.settings.config.Settings` nests them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from agents.profile_registry import DEFAULT_PROFILE
from agents.providers.presets import PROVIDER_NAMES
from weaver_tui.core.settings.early import DEFAULT_THEME_SETTING, default_data_dir

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

LOCAL_SERVER_PORTS = {"ollama": 11434, "llama.cpp": 8080, "vllm": 8000}
"""Where Ollama, llama.cpp's server and vLLM listen by default."""


class Section(BaseModel):
    """A settings section: a misspelt key in it is refused, not silently ignored."""

    model_config = ConfigDict(extra="forbid", validate_default=True)


class ProviderSection(Section):
    """Which provider answers, which model, and how it is reached (``provider:``)."""

    name: str = "auto"
    """Which provider answers: ``auto`` (the first provider whose API key is set, else the
    offline model), ``offline``, ``openai``, ``moonshot``, ``deepseek``, ``dashscope``,
    ``ollama``, ``vllm`` or ``openai-compatible`` (any server; set ``base_url``)."""

    model: str = ""
    """The model name sent to the provider; empty means the provider's default model."""

    base_url: str | None = None
    """The provider's OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:8000/v1``; empty
    means the preset's address."""

    api_key: SecretStr | None = None
    """The API key. Empty means the provider's own variable (``OPENAI_API_KEY``,
    ``MOONSHOT_API_KEY``, ...). Never logged or shown."""

    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    """Sampling temperature (0-2); empty leaves it to the provider."""

    http_timeout: float = Field(default=60.0, gt=0)
    """Seconds to wait for the provider to connect and for each piece of a reply."""

    local_servers: dict[str, int] = Field(default_factory=lambda: dict(LOCAL_SERVER_PORTS))
    """Local model servers looked for on 127.0.0.1 (name: port) when no key is set and the
    provider is ``auto``; ``{}`` looks for none."""

    @field_validator("name", mode="before")
    @classmethod
    def _known_provider(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().lower() or "auto"
            if value not in PROVIDER_NAMES:
                raise ValueError(
                    f"unknown provider {value!r}; use one of {', '.join(PROVIDER_NAMES)}"
                )
        return value

    @field_validator("base_url", mode="after")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        from agents.providers.presets import check_base_url

        return check_base_url(value) if value else None


class UiSection(Section):
    """What the app looks like and opens with (``ui:``)."""

    theme: str = DEFAULT_THEME_SETTING
    """The Textual theme the app starts with (the app saves the one you pick)."""

    default_profile: str = DEFAULT_PROFILE
    """The agent profile of a new conversation: ``ide-helper``, ``mediator``,
    ``paper-pilot`` or ``atom-developer``."""

    @field_validator("default_profile", mode="after")
    @classmethod
    def _known_profile(cls, value: str) -> str:
        from agents.profile_registry import PROFILE_NAMES

        if value not in PROFILE_NAMES:
            raise ValueError(f"unknown profile {value!r}; use one of {', '.join(PROFILE_NAMES)}")
        return value


class StorageSection(Section):
    """Where the app keeps what it writes (``storage:``)."""

    data_dir: Path = Field(default_factory=default_data_dir)
    """Where conversations, checkpoints and logs live."""

    url: str | None = None
    """A PostgreSQL server for conversations, seats, turn locks and graph state
    (``postgresql://user:password@host:5432/db``); empty: the SQLite file in ``data_dir``."""

    @field_validator("data_dir", mode="after")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @field_validator("url", mode="after")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        from storage.pg_url import check_storage_url
        from storage.store import StorageError

        if not value or not value.strip():
            return None
        try:
            return check_storage_url(value.strip())
        except StorageError as err:
            raise ValueError(str(err)) from None


class TurnsSection(Section):
    """The limits of one turn: what is sent, how long tools may take (``turns:``)."""

    context_messages: int = Field(default=20, ge=1, le=1000)
    """How many records of the active path (besides the system prompt) a turn sends."""

    max_tool_rounds: int = Field(default=5, ge=0, le=50)
    """Tool rounds per turn before the model must answer without tools."""

    tool_seconds: float = Field(default=30.0, gt=0, le=3600)
    """Time limit of one tool call; past it the call is stopped and the model is told."""

    tool_result_chars: int = Field(default=64_000, ge=1_000, le=10_000_000)
    """Size limit of a tool result the model reads; a longer one is cut, saying so."""

    max_message_bytes: int = Field(default=2_000_000, ge=1_000, le=100_000_000)
    """The largest message that is sent (bytes of UTF-8); a bigger one, typed, pasted or given
    to ``ask``, is refused with a sentence before anything is stored."""

    auto_summary: bool = True
    """Summarise the older part of a branch before a turn that would pass
    ``auto_summary_at`` of the model's context window (off per conversation in the palette)."""

    auto_summary_at: float = Field(default=0.9, gt=0.1, le=1.0)
    """The share of the context window the next turn may fill before the automatic summary."""


class LoggingSection(Section):
    """What the JSON-lines log file holds (``logging:``)."""

    level: LogLevel = "INFO"
    """The lowest level written to the log file."""

    redact_content: bool = False
    """Log only the first characters and a sha256 of prompts and replies
    (``AGENT_LOG_REDACT_CONTENT=true`` also turns this on)."""

    @field_validator("level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value


class McpServerEntry(Section):
    """One of the user's own MCP servers (``mcp_servers.NAME`` in config.yaml)."""

    transport: Literal["stdio", "streamable_http"] = "stdio"
    """``stdio`` runs ``command``; ``streamable_http`` talks to ``url``."""
    command: str | None = None
    """The program that runs the server (stdio)."""
    args: list[str] = Field(default_factory=list)
    """Its arguments (stdio)."""
    env: dict[str, SecretStr] = Field(default_factory=dict)
    """Variables given to the server on top of the MCP SDK's minimal environment; no other
    variable of yours reaches it (stdio). Their values are passed on, never shown."""
    cwd: str | None = None
    """The folder it runs in (stdio)."""
    url: str | None = None
    """The server's address (streamable_http)."""
    headers: dict[str, SecretStr] = Field(default_factory=dict)
    """HTTP headers sent with every request (streamable_http); their values (a token, say)
    are passed on, never shown."""
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
        from agents.profile_registry import PROFILE_NAMES

        for name in value or ():
            if name not in PROFILE_NAMES:
                raise ValueError(
                    f"unknown profile {name!r}; use some of {', '.join(PROFILE_NAMES)}"
                )
        return value
