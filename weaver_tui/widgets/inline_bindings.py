"""Running a focused widget's own key bindings in key order.

Textual runs a focused widget's (non-priority) bindings only when the key has bubbled up to
the app, through every ancestor's message queue, while printable keys are inserted as soon as
the widget sees them. Keys that arrive together (typing while a reply streams and the event
loop is busy, a paste without bracketed paste, a key macro) are then applied out of order:
``hello`` + Backspace + ``p`` gave ``hellp`` after the Backspace ran last, and Ctrl+U followed
by new text wiped the new text. Textual issue #6605 (fix proposed in PR #6631); until it lands,
editing widgets run their own bindings inline with :func:`run_own_binding` (the composer, and
:class:`OrderedInput` for the one-line inputs).
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget
from textual.widgets import Input


async def run_own_binding(widget: Widget, event: events.Key) -> bool:
    """Run ``widget``'s own non-priority binding for ``event`` now; ``True`` when one ran.

    Priority bindings were checked by the app before the key reached the widget; a binding
    whose action is disabled or skipped is left to bubble as before.
    """
    for binding in widget._bindings.key_to_bindings.get(event.key, ()):
        if binding.priority:
            continue
        if await widget.app.run_action(binding.action, widget):
            event.stop()
            event.prevent_default()
            return True
    return False


class OrderedInput(Input):
    """An :class:`~textual.widgets.Input` whose own keys (Backspace, Enter, arrows ...) apply
    in the order they were typed, even when they arrive together (see the module doc)."""

    async def _on_key(self, event: events.Key) -> None:
        # Input's own handler (printable keys) runs after this one unless a binding ran here.
        await run_own_binding(self, event)
