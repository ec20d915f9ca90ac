"""The modules a turn needs imported before it runs on an event loop.

Importing the agent stack costs about a third of a second of CPU (LangChain, LangGraph,
LangSmith's schemas, the OpenAI SDK), and LangChain imports a few more modules lazily the
first time a graph streams. An import on the event loop stops everything the loop drives for
that long: the app's frames and keys, ACP's requests. Front ends therefore import
:data:`RUNTIME_MODULES` in a thread (the app's warm-up, or the first turn's opening of the
runtime, :meth:`~weaver_tui.core.services.Services.runtime`) before the runtime is used, and
a test follows a first turn, sent at once or after the warm-up, and finds no import of these
packages on the loop.
"""

from __future__ import annotations

import importlib

RUNTIME_MODULES = (
    "agents.runtime.agent_runtime",
    "agents.role_models",
    # LangChain's own lazy imports of a first streamed run: the tracing context and the
    # collectors its callback manager sets up, and the translator of message content blocks
    # the chat model's stream goes through.
    "langchain_core.tracers.context",
    "langchain_core.tracers.run_collector",
    "langchain_core.tracers.stdout",
    "langchain_core.messages.block_translators.langchain_v0",
)
"""What a turn imports, in the order that loads each dependency before its users."""


def import_runtime_modules() -> None:
    """Import :data:`RUNTIME_MODULES` (in a thread: see the module)."""
    for name in RUNTIME_MODULES:
        importlib.import_module(name)
