"""What the user says about one MCP server: how to reach it, which profiles get its tools,
whether a call waits for the user's approval, and which of its tools are offered."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from agents.errors import ConfigError
from agents.mcp_servers.references import expand_references
from storage.secrets import without_values

Approval = Literal["ask", "always", "never"]
APPROVALS: Final[tuple[Approval, ...]] = ("ask", "always", "never")
Transport = Literal["stdio", "streamable_http"]


class McpServerError(ConfigError):
    """An MCP server could not be started, reached or used; the message is one sentence."""


@dataclass(frozen=True, slots=True)
class McpServerConfig:
    """One of the user's MCP servers.

    ``transport`` ``stdio`` runs ``command`` with ``args`` in ``cwd``, with the MCP SDK's
    minimal environment plus ``env`` (nothing else of the user's environment);
    ``streamable_http`` talks to ``url`` with ``headers``. ``profiles`` lists the profiles
    that get its tools (``None``: every profile whose graph calls tools). ``approve`` is
    ``ask`` (each call waits for the user), ``always`` (calls run without asking) or
    ``never`` (every call is refused). ``tools`` is an allowlist (``None``: all of them).
    The values of ``env`` and ``headers`` (tokens, say) are never shown: not in the repr,
    and :meth:`without_secrets` takes them out of any sentence about the server.
    """

    name: str
    transport: Transport = "stdio"
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    profiles: tuple[str, ...] | None = None
    approve: Approval = "ask"
    tools: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.transport == "stdio" and not self.command:
            raise McpServerError(f"MCP server {self.name!r} uses stdio but names no command.")
        if self.transport == "streamable_http" and not self.url:
            raise McpServerError(f"MCP server {self.name!r} uses streamable_http but names no url.")

    def without_secrets(self, text: str) -> str:
        """``text`` with this server's header and env values, as given or as Python quotes
        them (an HTTP library's message about a bad header does), replaced."""
        return without_values(text, [*self.headers.values(), *self.env.values()])

    def serves(self, profile: str, *, takes_tools: bool) -> bool:
        """Whether ``profile`` gets this server's tools."""
        if self.profiles is None:
            return takes_tools
        return profile in self.profiles

    def offers(self, tool: str) -> bool:
        """Whether the allowlist lets ``tool`` through."""
        return self.tools is None or tool in self.tools

    @classmethod
    def from_mapping(cls, name: str, entry: Mapping[str, Any]) -> McpServerConfig:
        """A config from its YAML shape (the keys above; ``profiles`` and ``tools`` lists),
        ``${VAR}`` expanded in every string (:mod:`.references`)."""
        entry = expand_references(dict(entry))
        profiles = entry.get("profiles")
        tools = entry.get("tools")
        return cls(
            name=name,
            transport=entry.get("transport") or "stdio",
            command=entry.get("command"),
            args=tuple(str(a) for a in entry.get("args") or ()),
            env={str(k): str(v) for k, v in (entry.get("env") or {}).items()},
            cwd=str(entry["cwd"]) if entry.get("cwd") else None,
            url=entry.get("url"),
            headers={str(k): str(v) for k, v in (entry.get("headers") or {}).items()},
            profiles=None if profiles is None else tuple(str(p) for p in profiles),
            approve=entry.get("approve") or "ask",
            tools=None if tools is None else tuple(str(t) for t in tools),
        )
