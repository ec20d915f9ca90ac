"""Textual's ``Footer``, rebuilt only when what it shows changes.

``Footer`` recomposes (a new ``FooterKey`` widget per shown binding, each with its styles
applied) every time its screen's bindings are refreshed: on every focus change, screen mount
and ``refresh_bindings()``, often several times per frame. In the first second of a launch
that was 8 recomposes on the chat skeleton alone, ~0.13 s of the event loop's time (measured
with cProfile on the 2-core benchmark machine), while the keys shown never changed. Here the
footer recomposes only if the shown bindings (key, label, action, enabled, tooltip, group)
differ from what it shows; the other refreshes queued in the same frame then find nothing new.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class WeaverFooter(Footer):
    """A ``Footer`` that skips recomposes that would show the same keys."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[Any, ...] | None = None

    def shown_bindings(self) -> tuple[Any, ...]:
        """What :meth:`compose` would show now, as a comparable value."""
        app = self.app
        keys = tuple(
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                tooltip,
                None
                if binding.group is None
                else (binding.group.description, binding.group.compact),
            )
            for (_node, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (keys, self.show_command_palette, self.compact)

    async def recompose(self) -> None:
        """Rebuild only if the keys shown would change (the other refreshes queued in the same
        frame find nothing new and return at once)."""
        if not self.is_attached:
            return
        shown = self.shown_bindings()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
