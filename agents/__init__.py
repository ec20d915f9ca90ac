"""The agent runtime: one LangGraph runtime, provider presets, the offline model, and profiles.

Never imports Textual: the same runtime serves the app, the headless CLI verbs and tests.

Importing this package keeps two optional modules of the HTTP libraries from loading, since no
weaver-tui process uses them. A ``None`` entry in ``sys.modules`` makes their import fail, which
each library expects and answers with a stub; it only works before the library is first
imported, which is why it is done here, where every agent module passes first.

- The OpenAI SDK's aiohttp transport: the SDK imports it whenever aiohttp is installed (the
  browser server, ``weaver-tui serve``, brings aiohttp along), which costs ~0.1 s and a few MiB
  on the way to the first reply, yet every client weaver-tui builds is an httpx one; the SDK then
  offers its ``DefaultAioHttpClient`` as a stub that says aiohttp is missing.
- httpx's own command-line client (``httpx._main``): ``import httpx`` loads it, with click,
  rich and pygments, whenever they are installed (~0.08 s of CPU in every process that reaches
  httpx: each ``ask``, the knowledge server, the MCP clients); ``httpx.main`` then is httpx's
  stub that says the command-line client cannot run. The ``httpx`` command itself is a process
  of its own that never imports this package.

It also defers the ``__init__`` of packages the agent stack reaches through their submodules
only (``langsmith.types``, ``langgraph_sdk``, ``openai.types``, ``langchain_openai``): see
:mod:`agents.deferred_inits`.
"""

import sys

from agents import deferred_inits

OPENAI_AIOHTTP_TRANSPORT = "openai._vendor.httpx_aiohttp"
HTTPX_COMMAND_LINE = "httpx._main"

if "openai" not in sys.modules:
    sys.modules.setdefault(OPENAI_AIOHTTP_TRANSPORT, None)  # type: ignore[arg-type]
if "httpx" not in sys.modules:
    sys.modules.setdefault(HTTPX_COMMAND_LINE, None)  # type: ignore[arg-type]
deferred_inits.install()
