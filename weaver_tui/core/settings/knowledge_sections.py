"""The sections of the research profile the app keeps: ``mcp`` (knowledge servers) and
``web_search`` (its limits are the profile's own section, in its folder).

Like every section they refuse keys they do not know, so a misspelt key is named instead of
silently doing nothing. Credentials (``web_search.api_key``, a connection's ``headers`` and
``env`` values) are ``SecretStr``: passed on to the agents (:func:`agent_view`), never shown in
a repr or an error message.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, model_validator

from weaver_tui.core.settings.sections import Section


class KnowledgeConnection(Section):
    """One knowledge server (``mcp.connections.NAME``), in langchain-mcp-adapters' shape."""

    transport: Literal["stdio", "streamable_http", "sse"] = "stdio"
    """``stdio`` runs ``command``; ``streamable_http`` (or ``sse``) talks to ``url``."""
    command: str | None = None
    """The program that runs the server (stdio)."""
    args: list[str] = Field(default_factory=list)
    """Its arguments (stdio)."""
    cwd: str | None = None
    """The folder it runs in (stdio)."""
    env: dict[str, SecretStr] = Field(default_factory=dict)
    """Variables given to the server on top of the MCP SDK's minimal environment (stdio);
    their values are passed on, never shown."""
    url: str | None = None
    """The server's address (streamable_http, sse)."""
    headers: dict[str, SecretStr] = Field(default_factory=dict)
    """HTTP headers sent with every request (streamable_http, sse); values never shown."""
    timeout: float | None = Field(default=None, gt=0)
    """Seconds to wait for the server's HTTP answers (streamable_http, sse)."""
    sse_read_timeout: float | None = Field(default=None, gt=0)
    """Seconds to wait for the next event of a stream (streamable_http, sse)."""

    @model_validator(mode="after")
    def _reachable(self) -> KnowledgeConnection:
        if self.transport == "stdio" and not self.command:
            raise ValueError("a stdio connection needs a command")
        if self.transport != "stdio" and not self.url:
            raise ValueError(f"a {self.transport} connection needs a url")
        return self


class McpSection(Section):
    """The research profile's knowledge servers (``mcp:``); empty: the embedded server."""

    connections: dict[str, KnowledgeConnection] = Field(default_factory=dict)
    """The servers by name."""
    server: str | None = None
    """Which of ``connections`` answers (default: the first)."""

    @model_validator(mode="after")
    def _known_server(self) -> McpSection:
        if self.server and self.connections and self.server not in self.connections:
            raise ValueError(
                f"mcp.server names {self.server!r}, which is not one of mcp.connections "
                f"({', '.join(self.connections)})"
            )
        return self


class WebSearchSection(Section):
    """The research profile's optional web fallback (``web_search:``), off by default."""

    enabled: bool = False
    """Search the web when the critic rejected every retry."""
    url: str | None = None
    """A Tavily-style search API (default ``https://api.tavily.com/search``)."""
    api_key: SecretStr | None = None
    """The search API's key; passed on, never shown. Without one no search is sent."""
    max_results: int = Field(default=5, ge=1, le=20)
    """The most results one search asks for."""


def agent_view(section: BaseModel) -> dict[str, Any]:
    """What the agents read: the keys the user set, as plain values (secrets revealed)."""
    revealed = _reveal(section.model_dump(exclude_unset=True))
    assert isinstance(revealed, dict)
    return revealed


def _reveal(value: Any) -> Any:
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    if isinstance(value, dict):
        return {key: _reveal(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_reveal(inner) for inner in value]
    return value


def secret_values(section: BaseModel, *, credentials_only: bool = False) -> list[str]:
    """Every ``SecretStr`` value in ``section``, at any depth; ``credentials_only``: only those
    under a name that says credential (``Authorization``, ``API_TOKEN``), not a plain header
    such as ``X-Team: support`` whose value may well be an ordinary word."""
    found: list[str] = []

    def walk(value: Any, name: str) -> None:
        if isinstance(value, SecretStr):
            if not credentials_only or names_a_credential(name):
                found.append(value.get_secret_value())
        elif isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, str(key))
        elif isinstance(value, list):
            for inner in value:
                walk(inner, name)

    walk(section.model_dump(), "")
    return [value for value in found if value]


def url_secrets(section: BaseModel) -> list[str]:
    """The credentials written into the web addresses of ``section``, at any depth: the
    password of ``https://user:password@host`` and the value of a query parameter named like
    a credential (``?api-key=...``, ``&token=...``), as written and percent-decoded. A server
    or a proxy may echo its address, or the header it made of it, in an error."""
    from urllib.parse import parse_qsl, unquote, urlsplit

    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str) and "://" in value:
            try:
                parts = urlsplit(value.strip())
                password = parts.password
            except ValueError:
                return
            if password:
                found.extend({password, unquote(password)})
            for name, given in parse_qsl(parts.query, keep_blank_values=False):
                if names_a_credential(name):
                    found.extend({given, unquote(given)})
        elif isinstance(value, dict):
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(section.model_dump())
    return [value for value in found if value]


def names_a_credential(name: str) -> bool:
    """Whether a header or variable name says its value is a credential."""
    from storage.secrets import is_secret_key

    normal = "".join(ch for ch in name.lower() if ch.isalnum())
    return is_secret_key(name) or normal.endswith(("token", "key"))
