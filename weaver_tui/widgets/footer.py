"""Textual's ``Footer``, rebuilt only when what it shows changes.

``Footer`` recomposes (a new ``FooterKey`` widget per shown binding, each with its styles
applied) every time its screen's bindings are refreshed: on every focus change, screen mount
and ``refresh_bindings()``, often several times per frame. In the first second of a launch
that was 8 recomposes on the chat skeleton alone, ~0.13 s of the event loop's time (measured
with cProfile on the 2-core benchmark machine), while the keys shown never changed. Here the
footer recomposes only if the shown bindings (key, label, action, enabled, tooltip, group)
differ from what it shows; the other refreshes queued in the same frame then find nothing new.
When only whether keys are enabled changed (a reply starts: Esc cancels; it ends: F5 retries),
the keys it shows are dimmed or lit in place, as a rebuild would show them, without mounting
new widgets and laying the screen out again in the middle of a turn.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer
from textual.widgets._footer import FooterKey


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
        only_enabled = self._only_enabled_changed(shown)
        self._shown = shown
        if only_enabled:
            self._show_enabled()
        else:
            await super().recompose()

    def _only_enabled_changed(self, shown: tuple[Any, ...]) -> bool:
        """Whether ``shown`` differs from what is shown only in which keys are enabled."""
        if self._shown is None:
            return False
        (keys, *rest), (old_keys, *old_rest) = shown, self._shown
        if rest != old_rest or len(keys) != len(old_keys):
            return False
        return all(a[:4] + a[5:] == b[:4] + b[5:] for a, b in zip(keys, old_keys, strict=True))

    def _show_enabled(self) -> None:
        """Dim or light each key as :meth:`compose` would build it (the first shown binding of
        its action decides; ``FooterKey._disabled`` is what its click checks)."""
        bindings = self.screen.active_bindings.values()
        enabled: dict[str, bool] = {}
        for _node, binding, is_enabled, _tooltip in sorted(bindings, key=lambda b: not b[1].show):
            enabled.setdefault(binding.action, is_enabled)
        for key in self.query(FooterKey):
            if key.action in enabled:
                key._disabled = not enabled[key.action]
                key.set_class(key._disabled, "-disabled")
