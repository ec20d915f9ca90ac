"""The user's MCP servers and their tools, each switched on or off for this conversation.

``app.push_screen(McpServersScreen(toolbox, serving=..., off=..., keep_off=...))`` lists every
server of ``mcp_servers`` in config.yaml with its state (starting, ready, failed, stopped) and,
when it is not usable, the one sentence saying why; under a ready server, its tools. Space or
Enter switches the highlighted server or tool on or off in this conversation (``keep_off`` keeps
the new list with it, and the runtime leaves those tools out of its next turns); ``r`` starts
the highlighted server again; Esc closes. The servers this profile uses are started when the list opens, if they never were.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from agents.mcp_servers.toolbox import McpToolbox, ServerStatus, switch_key
from storage.printable import printable
from weaver_tui.widgets.footer import WeaverFooter

STATE_WORDS = {
    "not started": "starting…",
    "starting": "starting…",
    "ready": "ready",
    "failed": "failed",
    "stopped": "stopped",
}
"""How each state of a server reads in the list."""


class McpServersScreen(ModalScreen[None]):
    """The servers and their tools, with a switch per conversation."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("space", "switch", "On/off"),
        Binding("r", "restart", "Start again"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down | Move between servers and tools. |
    | space, enter | Switch the highlighted server or tool on or off in this conversation. |
    | r | Start the highlighted server again (after it failed or stopped). |
    | escape | Close. |
    """

    DEFAULT_CSS = """
    McpServersScreen {
        align: center middle;
        background: $background 60%;
        & > #mcp-dialog {
            width: 100;
            max-width: 95%;
            height: auto;
            max-height: 90%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
        & #mcp-title { text-style: bold; margin: 1 0 0 0; }
        & #mcp-hint { color: $text-muted; margin-bottom: 1; }
        & OptionList { height: auto; max-height: 30; }
    }
    """

    def __init__(
        self,
        toolbox: McpToolbox,
        *,
        serving: Collection[str],
        off: Collection[str],
        keep_off: Callable[[list[str]], bool],
    ) -> None:
        """``serving``: the servers whose tools this conversation's profile gets; ``off``: the
        switches off now; ``keep_off(new)`` keeps a changed list (``False``: it said why not)."""
        super().__init__()
        self.toolbox = toolbox
        self.serving = frozenset(serving)
        self.off: list[str] = list(off)
        self._keep_off = keep_off

    def compose(self) -> ComposeResult:
        with Vertical(id="mcp-dialog"):
            yield Label("MCP servers", id="mcp-title", markup=False)
            yield Label(
                "Space switches a server or tool on or off in this conversation · "
                "r starts a server again · Esc closes",
                id="mcp-hint",
                markup=False,
            )
            yield OptionList(id="mcp-list")
        yield WeaverFooter()

    @property
    def listing(self) -> OptionList:
        return self.query_one("#mcp-list", OptionList)

    def on_mount(self) -> None:
        self.reload()
        self.listing.focus()
        statuses = self.toolbox.statuses()
        never = [s.name for s in statuses if s.state == "not started" and s.name in self.serving]
        if never:
            self._start(never)

    def _start(self, names: list[str]) -> None:
        async def start() -> None:
            await self.toolbox.start(names)
            self.reload()

        self.run_worker(start(), group="mcp-start", exit_on_error=False)

    # ------------------------------------------------------------------ the list

    def reload(self) -> None:
        """Draw the list again from the servers' statuses and the switches."""
        listing = self.listing
        highlighted = listing.highlighted
        listing.clear_options()
        for status in self.toolbox.statuses():
            listing.add_option(Option(self._server_line(status), id=switch_key(status.name)))
            if status.name not in self.serving:
                continue
            server_off = status.name in self.off
            for tool in status.tools:
                key = switch_key(status.name, tool)
                listing.add_option(Option(self._tool_line(tool, key, server_off), id=key))
        if highlighted is not None and listing.option_count:
            listing.highlighted = min(highlighted, listing.option_count - 1)

    def _switch_text(self, key: str) -> Text:
        on = key not in self.off
        return Text("[on] " if on else "[off]", style="bold green" if on else "bold red")

    def _server_line(self, status: ServerStatus) -> Text:
        line = self._switch_text(status.name) + " "
        line.append(printable(status.name), style="bold")
        if status.name not in self.serving:
            whom = ", ".join(status.profiles or ()) or "profiles that call tools"
            line.append(f"  not used by this profile (serves {printable(whom)})", style="dim")
            return line
        state = STATE_WORDS.get(status.state, status.state)
        line.append(f"  {state}", style="red" if status.problem else "")
        if status.state == "ready":
            line.append(f" · {len(status.tools)} tools · approval: {status.approve}", style="dim")
        if status.problem:
            line.append("\n      ")
            line.append(printable(status.problem), style="italic")
        return line

    def _tool_line(self, tool: str, key: str, server_off: bool) -> Text:
        line = Text("    ") + self._switch_text(key) + " "
        line.append(printable(tool), style="dim" if server_off else "")
        if server_off:
            line.append("  (its server is off)", style="dim")
        return line

    # ------------------------------------------------------------------ actions

    def _highlighted_key(self) -> str | None:
        listing = self.listing
        if listing.highlighted is None:
            return None
        return listing.get_option_at_index(listing.highlighted).id

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_switch()

    def action_switch(self) -> None:
        """Switch the highlighted server or tool on or off, and keep it with the conversation."""
        key = self._highlighted_key()
        if key is None:
            return
        changed = [k for k in self.off if k != key] if key in self.off else [*self.off, key]
        if self._keep_off(changed):
            self.off = changed
        self.reload()

    def action_restart(self) -> None:
        key = self._highlighted_key()
        if key is None:
            return
        server = key.split("/", 1)[0]
        self._start([server])
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)
