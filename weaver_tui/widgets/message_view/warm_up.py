"""The renderer's one-time setup, done in a thread once the first view is on screen.

The first Markdown render in a process pays for things no later render does: compiling a
pygments lexer's regular expressions (~100 ms for Python on the 2-core benchmark machine),
Rich's and markdown-it's first-use setup. Paid inside a streamed frame, that is a frozen
screen and a late key press in the first reply with a code block; paid here, in a thread a
moment after the first paint, it costs the event loop at most a few GIL switches.
"""

from __future__ import annotations

import logging
import threading

logger = logging.getLogger(__name__)

DELAY_S = 1.0
"""After the first view's mount: the launch's own work is done by then."""

WAIT_S = 30.0
"""How long :func:`run` waits for a setup another thread is doing (a bound against a hang)."""

_started = False
_start_lock = threading.Lock()
_done = threading.Event()


def started() -> bool:
    return _started


def start() -> None:
    """Run :func:`.rich_markdown.warm_up` in a daemon thread (once a process)."""
    if _claim():
        threading.Thread(target=_run, name="weaver-render-warm-up", daemon=True).start()


def run() -> None:
    """Run the setup in this thread (the app's warm-up thread), or wait for the one already
    under way, so whoever awaits this knows the renderer is warm."""
    if _claim():
        _run()
    else:
        _done.wait(WAIT_S)


def _claim() -> bool:
    global _started
    with _start_lock:
        if _started:
            return False
        _started = True
        return True


def _run() -> None:
    from weaver_tui.widgets.message_view.rich_markdown import warm_up

    try:
        warm_up()
    except Exception:  # only a warm-up: a real render reports a real problem
        logger.debug("renderer warm-up failed", exc_info=True)
    finally:
        _done.set()
