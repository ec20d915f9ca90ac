"""One-line inputs apply keys that arrive together in the order they were typed."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from weaver_tui.widgets.inline_bindings import OrderedInput


class InputHost(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield OrderedInput()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.submitted.append(event.value)


async def test_a_burst_of_keys_is_applied_in_order() -> None:
    app = InputHost()
    async with app.run_test() as pilot:
        field = app.query_one(OrderedInput)
        field.focus()
        for key in ("a", "b", "backspace", "c", "home", "x", "enter"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        await pilot.pause()
        assert field.value == "xac"
        assert app.submitted == ["xac"]
