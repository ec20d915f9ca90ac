"""Textual's ``Footer``, rebuilt only when what it shows changes.

``Footer`` recomposes (a new ``FooterKey`` widget per shown binding, each with its styles
applied) every time its screen's bindings are refreshed: on every focus change, screen mount
and ``refresh_bindings()``, often several times per frame. In the first second of a launch
that was 8 recomposes on the chat skeleton alone, ~0.13 s of the event loop's time (measured
with cProfile on the 2-core benchmark machine), while the keys shown never changed. Here the
footer recomposes only if the shown bindings (key, label, action, enabled, tooltip, group)
differ from what it shows; the other refreshes queued in the same frame then find nothing new.
When only whether keys are enabled changed (a reply ends: F5 retries), the keys it shows are
dimmed or lit in place, as a rebuild would show them, without mounting new widgets and laying
the screen out again in the middle of a turn. When keys come or go with the others kept in
their order (a reply starts: Esc cancels; it ends: Esc goes), the keys that went are hidden
and the keys that came are shown again or, the first time, mounted in their place: a rebuild
of the whole row (every key unmounted, a new one mounted and styled for each) twice a turn
was ~8% of the CPU of a short turn (cProfile).

When the row of keys is wider than the terminal, the keys that have a short label in the keymap
("New" for "New conversation") show it, and F1 (help, which lists every key) comes first, so it
is never the key pushed off the row.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from weaver_tui.keymap import short_labels

KEY_CELLS = 3
"""Cells a key takes besides its key and label (the padding around them)."""
PALETTE_CELLS = 14
"""Cells the command palette's key takes at the right end."""
HELP_ACTION = "help"
"""The action of F1, the key that lists every other key."""

Active = Collection[ActiveBinding]
"""The screen's active bindings (``Screen.active_bindings.values()``): computed once per check,
as each computation asks every binding's ``check_action``."""


_STATE_CLASSES = frozenset({"-disabled", "-compact"})
"""Classes that tell a key's state, not which key it is: dimmed, and compact (a key not bound
to the footer's ``compact``, the palette's, takes ``-compact`` from its own default as it
mounts, so a key just composed lacks it; the footer's ``compact`` is compared on its own)."""


def _identity(key: FooterKey) -> tuple[Any, ...]:
    """What a key shows and does, whether it is lit or dimmed aside."""
    return (
        key.key,
        key.key_display,
        key.description,
        key.action,
        key.tooltip,
        key.classes - _STATE_CLASSES,
    )


class WeaverFooter(Footer):
    """A ``Footer`` that skips recomposes that would show the same keys."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[Any, ...] | None = None

    def shown_bindings(self, active: Active | None = None) -> tuple[Any, ...]:
        """What :meth:`compose` would show now, as a comparable value (``active``: the
        screen's active bindings, when the caller has them already)."""
        app = self.app
        bindings = self.screen.active_bindings.values() if active is None else active
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
            for (_node, binding, enabled, tooltip) in bindings
            if binding.show
        )
        return (keys, self.show_command_palette, self.compact, self._short(bindings))

    def _short(self, active: Active) -> bool:
        """Whether the keys shown with their full labels would be wider than the terminal."""
        seen: set[str] = set()
        cells = PALETTE_CELLS if self.show_command_palette else 0
        for _node, binding, _enabled, _tooltip in active:
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                key = self.app.get_key_display(binding)
                cells += len(key) + len(binding.description) + KEY_CELLS
        grouped = any(binding.show and binding.group for _n, binding, _e, _t in active)
        return cells > self.app.size.width and not grouped  # a group is kept as it is

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        short = self._short(self.screen.active_bindings.values())
        widgets = list(super().compose())  # when short, the keys shown carry no group
        if short:
            labels = short_labels()
            widgets.sort(key=lambda w: not (isinstance(w, FooterKey) and w.action == HELP_ACTION))
        for widget in widgets:
            if isinstance(widget, FooterKey):
                if short and widget.description in labels:
                    widget.description = labels[widget.description]
                self._bound_compact_now(widget)
            yield widget

    def _bound_compact_now(self, key: FooterKey) -> None:
        """Give a key bound to the footer's ``compact`` that value before it mounts, as its
        binding does right after: else the key restyles itself twice as it mounts (with its
        own default, then with the footer's), each time matching the stylesheet against it.
        (The palette's key is not bound: it keeps its own default.)"""
        if "compact" in (key._reactive_connect or {}):
            key.set_reactive(FooterKey.compact, self.compact)
            key.set_class(self.compact, "-compact", update=False)

    def on_resize(self, event: events.Resize) -> None:
        self.call_later(self.recompose)  # the labels may have to be short, or may be long again

    async def recompose(self) -> None:
        """Rebuild only if the keys shown would change (the other refreshes queued in the same
        frame find nothing new and return at once)."""
        if not self.is_attached:
            return
        active = self.screen.active_bindings.values()
        shown = self.shown_bindings(active)
        if shown == self._shown:
            return
        only_enabled = self._only_enabled_changed(shown)
        same_row = self._shown is not None and self._shown[1:] == shown[1:]
        self._shown = shown
        if only_enabled:
            self._show_enabled(active)
        elif not (same_row and await self._show_keys_that_came_or_went()):
            await super().recompose()

    async def _show_keys_that_came_or_went(self) -> bool:
        """Show what :meth:`compose` would show now by hiding the keys that went and showing
        (or mounting, the first time) the keys that came, the others kept as they are, lit or
        dimmed anew; False if that cannot give the same row (keys in a group, keys in another
        order), and nothing was changed. A key hidden takes no cell of the row, as a key not
        composed; it shows again when its binding does (Esc while a reply is written)."""
        wanted = list(self.compose())
        built = list(self.children)
        if not all(isinstance(w, FooterKey) for w in (*wanted, *built)):
            return False
        wanted_keys = {_identity(key): key for key in wanted if isinstance(key, FooterKey)}
        built_keys = {_identity(key): key for key in built if isinstance(key, FooterKey)}
        kept_in_built = [i for i in built_keys if i in wanted_keys]
        kept_in_wanted = [i for i in wanted_keys if i in built_keys]
        if kept_in_built != kept_in_wanted or not kept_in_built or len(wanted_keys) < len(wanted):
            return False
        for identity, key in built_keys.items():
            new = wanted_keys.get(identity)
            if key.display != (new is not None):
                key.display = new is not None
            if new is not None and key._disabled != new._disabled:
                key._disabled = new._disabled
                key.set_class(key._disabled, "-disabled")
        await self._mount_new_keys(list(wanted_keys.items()), built_keys)
        return True

    async def _mount_new_keys(
        self, wanted: list[tuple[tuple[Any, ...], FooterKey]], built: dict[Any, FooterKey]
    ) -> None:
        """Mount the keys of ``wanted`` not yet ``built``, each before the next key kept (or
        after the last one kept), so the row keeps :meth:`compose`'s order."""
        for n, (identity, key) in enumerate(wanted):
            if identity in built:
                continue
            after = next((built[i] for i, _k in reversed(wanted[:n]) if i in built), None)
            before = next((built[i] for i, _k in wanted[n + 1 :] if i in built), None)
            if after is not None:
                await self.mount(key, after=after)
            else:
                await self.mount(key, before=before)
            built[identity] = key

    def _only_enabled_changed(self, shown: tuple[Any, ...]) -> bool:
        """Whether ``shown`` differs from what is shown only in which keys are enabled."""
        if self._shown is None:
            return False
        (keys, *rest), (old_keys, *old_rest) = shown, self._shown
        if rest != old_rest or len(keys) != len(old_keys):
            return False
        return all(a[:4] + a[5:] == b[:4] + b[5:] for a, b in zip(keys, old_keys, strict=True))

    def _show_enabled(self, active: Active) -> None:
        """Dim or light each key as :meth:`compose` would build it (the first shown binding of
        its action decides; ``FooterKey._disabled`` is what its click checks)."""
        enabled: dict[str, bool] = {}
        for _node, binding, is_enabled, _tooltip in sorted(active, key=lambda b: not b[1].show):
            enabled.setdefault(binding.action, is_enabled)
        for key in self.query(FooterKey):
            if key.action in enabled:
                key._disabled = not enabled[key.action]
                key.set_class(key._disabled, "-disabled")
