"""The chat screen's part in the palette's "MCP servers": the list of the user's servers and
their tools, with the switches this conversation keeps (the runtime leaves out what is off).

The list needs the runtime's toolbox (its servers run for the whole session), so opening it
opens the runtime first, in a worker, as a turn would.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from storage.store import StorageError

if TYPE_CHECKING:
    from agents.runtime.agent_runtime import AgentRuntime
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

NO_SERVERS = "No MCP servers are configured: add them under mcp_servers in config.yaml."


class McpSwitches:
    """Opens the servers' list for the conversation shown and keeps its switches."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        *,
        runtime: Callable[[], Awaitable[AgentRuntime]],
    ) -> None:
        self._surface = surface
        self._state = state
        self._services = services
        self._runtime = runtime

    def show(self) -> None:
        """Open the list (or say in one sentence that there is nothing to list)."""
        if not self._services.settings.mcp_servers:
            self._surface.notify(NO_SERVERS)
            return
        self._surface.run_worker(self._open(), group="mcp-servers", exclusive=True)

    async def _open(self) -> None:
        from agents.mcp_servers.toolbox import OFF_KEY
        from agents.profile_registry import get_profile
        from weaver_tui.screens.mcp_servers import McpServersScreen

        runtime = await self._runtime()
        profile = get_profile(self._state.profile)
        takes_tools = bool(profile.make_tools())
        serving = [s.name for s in runtime.mcp.serving(profile.name, takes_tools=takes_tools)]
        off = [str(k) for k in self._state.setting(OFF_KEY) or ()]
        screen = McpServersScreen(runtime.mcp, serving=serving, off=off, keep_off=self._keep)
        self._surface.app.push_screen(screen)

    def _keep(self, off: list[str]) -> bool:
        from agents.mcp_servers.toolbox import OFF_KEY

        try:
            self._state.set_setting(OFF_KEY, off or None)
        except StorageError as exc:
            self._surface.notify(str(exc), severity="error", title="Switch not kept")
            return False
        return True
