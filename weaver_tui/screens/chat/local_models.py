"""A model served on this machine, found in the background when no key is set.

After the chat has drawn and the agent modules are in (never before the first frame), one
thread worker asks 127.0.0.1 on the ports of the ``local_servers`` setting (Ollama, llama.cpp,
vLLM) for their model lists. When one answers, the header says a local model is available and
the model picker (Ctrl+L) lists its models; the offline demo stays in use until the user picks
one. Only with ``provider: auto`` and no key (an explicit provider is the user's choice).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.providers.local_servers import LocalServer
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)


class LocalModels:
    """The background look for local model servers on one chat screen."""

    def __init__(self, surface: ChatSurface, services: Services) -> None:
        self._surface = surface
        self._services = services
        self._started = False
        self.servers: list[LocalServer] = []
        """The servers that answered with at least one model (empty until then)."""

    def start(self) -> None:
        """Look once, in a thread, if the app runs the offline model for want of a key."""
        if self._started:
            return
        self._started = True
        ports = self._ports_to_probe()
        if ports:
            self._surface.run_worker(
                lambda: self._probe(ports),
                thread=True,
                name="local-models",
                group="local-models",
                exit_on_error=False,
            )

    def _ports_to_probe(self) -> dict[str, int]:
        from agents.errors import WeaverError
        from agents.providers import resolve_provider

        settings = self._services.settings
        ports = dict(settings.provider.local_servers)
        config = settings.provider_config()
        if not ports or (config.provider or "auto").strip().lower() != "auto":
            return {}
        try:
            offline = resolve_provider(config).provider == "offline"
        except WeaverError:
            return {}
        return ports if offline else {}

    def _probe(self, ports: dict[str, int]) -> None:
        from agents.providers.local_servers import probe_local_servers

        found = probe_local_servers(ports)
        if found:
            self._surface.app.call_from_thread(self._found, found)

    def _found(self, servers: list[LocalServer]) -> None:
        self.servers = servers
        first = servers[0]
        self._surface.header.local_model = f"{first.name}: {first.models[0]}"
        self._surface.notify(
            f"A local model is available ({first.name} at {first.base_url}: "
            f"{', '.join(first.models[:3])}); pick it with Ctrl+L. The offline demo stays "
            "until you do.",
            title="Local model found",
        )
