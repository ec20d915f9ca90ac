"""Local model servers on this machine: which answer on 127.0.0.1, and which models they serve.

With no key set the app runs the offline demo; a model served locally (Ollama, llama.cpp's
server, vLLM) needs no key either, so the app looks for one in the background and offers it in
the model picker. Only the loopback address is asked, once per port, with a short timeout and
no proxy; a port that refuses, times out or answers something that is not an OpenAI-compatible
model list counts as no server. Nothing is switched: the user picks.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
PROBE_SECONDS = 1.0
PRESET_OF: Mapping[str, str] = {"ollama": "ollama", "vllm": "vllm"}
"""The provider preset that speaks to a named server; any other is ``openai-compatible``."""


@dataclass(frozen=True, slots=True)
class LocalServer:
    """A server that answered: its name, its OpenAI-compatible base URL and its models."""

    name: str
    base_url: str
    models: tuple[str, ...]

    @property
    def provider(self) -> str:
        return PRESET_OF.get(self.name, "openai-compatible")


def models_listed(answer: Any) -> tuple[str, ...]:
    """The model ids of an OpenAI-compatible ``/models`` answer (``()`` for anything else)."""
    data = answer.get("data") if isinstance(answer, dict) else None
    if not isinstance(data, list):
        return ()
    ids = (entry.get("id") for entry in data if isinstance(entry, dict))
    return tuple(i for i in ids if isinstance(i, str) and i.strip())


def probe_local_servers(ports: Mapping[str, int]) -> list[LocalServer]:
    """The servers among ``ports`` (name: port) that list at least one model on 127.0.0.1."""
    import httpx

    found = []
    with httpx.Client(trust_env=False, timeout=PROBE_SECONDS) as client:
        for name, port in ports.items():
            base_url = f"http://{LOOPBACK}:{int(port)}/v1"
            try:
                answer = client.get(f"{base_url}/models")
                answer.raise_for_status()
                models = models_listed(answer.json())
            except (httpx.HTTPError, ValueError):
                continue
            if models:
                found.append(LocalServer(name, base_url, models))
    logger.info("local model servers", extra={"found": [s.name for s in found]})
    return found
