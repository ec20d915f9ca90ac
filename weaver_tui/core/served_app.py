"""The app process started for one browser session: only the environment the app reads, and
stopped when the session ends.

textual-serve starts each app with all of the server's environment (every secret the user
has exported) and, when the browser goes, asks it to quit and waits for as long as it takes.
:class:`ScopedAppService` passes on only what the app reads (:func:`app_environment`) plus
what textual-serve sets for its web driver, and kills an app that has not quit in time.
The terminal size a page asks for is a page's word, so it is bounded (:func:`terminal_size`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from typing import Final

from textual_serve.app_service import AppService

from agents.providers.presets import PRESETS

logger = logging.getLogger(__name__)

_APP_VARIABLES = frozenset(
    {"PATH", "HOME", "LANG", "TERM", "TZ", "TMPDIR", "NO_COLOR", "AGENT_LOG_REDACT_CONTENT"}
    # The app is this same Python program: it needs what let this one find its code.
    | {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SYSTEMROOT"}
)
_APP_PREFIXES = ("LC_", "XDG_", "WEAVER_")


_SERVED_ALWAYS = frozenset({"COLUMNS", "ROWS", "TERM_PROGRAM", "TERM_PROGRAM_VERSION"})


MAX_COLUMNS: Final = 1_000
"""The widest terminal a page may ask an app to draw."""
MAX_ROWS: Final = 500
"""The tallest terminal a page may ask an app to draw."""


def terminal_size(width: object, height: object) -> tuple[int, int]:
    """The size an app is started with or resized to, from what a page asked for.

    A page (a seat's participant, or anything holding a link) says how big its terminal is,
    in the websocket's query and in every ``resize`` message; the app on this machine then
    draws a screen that size. Every value is bounded: an integer is kept within 1 to
    :data:`MAX_COLUMNS` (or :data:`MAX_ROWS`), anything else (text, a fraction, a list,
    ``true``, nothing) is the usual 80 by 24. So no page can make the app draw a screen of a
    billion cells or fail on a size that is not a number.
    """
    return _bounded(width, 80, MAX_COLUMNS), _bounded(height, 24, MAX_ROWS)


def _bounded(value: object, default: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    return min(max(value, 1), most)


def provider_variables() -> frozenset[str]:
    """The provider presets' key and base-URL variables (``OPENAI_API_KEY``, ...)."""
    names = {p.key_env for p in PRESETS.values()} | {p.base_url_env for p in PRESETS.values()}
    return frozenset(name for name in names if name)


def app_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The part of ``environ`` an app started for a browser session needs, and no more."""
    wanted = _APP_VARIABLES | provider_variables()
    return {k: v for k, v in environ.items() if k in wanted or k.startswith(_APP_PREFIXES)}


class ScopedAppService(AppService):
    """textual-serve's app process, started with :func:`app_environment` instead of all of
    ``os.environ`` (plus what textual-serve itself sets for its web driver)."""

    quit_timeout_s = 10.0

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        full = super()._build_environment(width=width, height=height)
        # What textual-serve sets for its web driver: what differs from our environment, and
        # the terminal's size and driver, which may happen to equal a variable we have.
        served = {
            k: v
            for k, v in full.items()
            if os.environ.get(k) != v or k in _SERVED_ALWAYS or k.startswith("TEXTUAL")
        }
        return {**app_environment(os.environ), **served}

    async def start(self, width: int, height: int) -> None:
        await super().start(*terminal_size(width, height))

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*terminal_size(width, height))

    async def stop(self) -> None:
        """Ask the app to quit (as textual-serve does) and wait until it has; one that has
        not after :attr:`quit_timeout_s` is killed: no app outlives its browser session."""
        process = self._process
        if process is None:
            await super().stop()
            return
        deadline = asyncio.get_running_loop().call_later(self.quit_timeout_s, _kill, process)
        try:
            await super().stop()
            await process.wait()
        finally:
            deadline.cancel()


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        logger.warning("an app did not quit when its session ended; stopping it")
        process.kill()
