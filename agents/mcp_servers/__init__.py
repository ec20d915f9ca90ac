"""The user's own MCP servers: their tools join the profiles they are given to.

:func:`open_mcp_tools` is the one entry point for a list of server configs (the app's
``mcp_servers`` setting, or the servers an editor hands over): it starts each server, keeps
one session per server open, and returns the tools with a closer. :class:`McpToolbox` keeps
the app's servers for a whole run and says what each one is doing.
"""

from agents.mcp_servers.servers import APPROVALS, Approval, McpServerConfig, McpServerError
from agents.mcp_servers.toolbox import McpToolbox, McpToolset, ServerStatus, open_mcp_tools

__all__ = [
    "APPROVALS",
    "Approval",
    "McpServerConfig",
    "McpServerError",
    "McpToolbox",
    "McpToolset",
    "ServerStatus",
    "open_mcp_tools",
]
