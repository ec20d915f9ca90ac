"""The agent runtime: one LangGraph runtime, provider presets, the offline model, and profiles.

Never imports Textual: the same runtime serves the app, the headless CLI verbs and tests.

Importing this package keeps the OpenAI SDK from loading its optional aiohttp transport: the
SDK imports it whenever aiohttp is installed (the browser server, ``weaver-tui serve``, brings
aiohttp along), which costs ~0.1 s and a few MiB on the way to the first reply, yet every client
weaver-tui builds is an httpx one. A ``None`` entry in ``sys.modules`` makes that import fail;
the SDK then offers its ``DefaultAioHttpClient`` as a stub that says aiohttp is missing. It only
works before the SDK is first imported, which is why it is done here, where every agent module
passes first.
"""

import sys

OPENAI_AIOHTTP_TRANSPORT = "openai._vendor.httpx_aiohttp"

if "openai" not in sys.modules:
    sys.modules.setdefault(OPENAI_AIOHTTP_TRANSPORT, None)  # type: ignore[arg-type]
