"""The README's list of what the ACP agent supports is what the agent's code does.

The class: every entry of the list (the methods the agent answers, the client methods it
calls, its config options, slash commands and elicitation modes) is read from the README and
compared with the code itself: the methods the SDK routes to the agent's own handlers, the
client calls in the agent's sources, the options a session is offered, the slash command
table, the elicitation modes the agent builds. An entry added to either side alone fails.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

from acp.agent.router import build_agent_router
from acp.interfaces import Agent, Client
from acp.meta import CLIENT_METHODS

from agents.slash_commands import commands_for
from weaver_tui.core.acp_agent import agent as agent_module
from weaver_tui.core.acp_agent.agent import WeaverAcpAgent
from weaver_tui.core.acp_agent.session_config import ConfigChoices

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SOURCES = Path(agent_module.__file__).parent


def readme_list(label: str) -> set[str]:
    """The backticked names of the README's ``- <label>:`` entry (over its wrapped lines)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"- {label}:")
    end = text.find("\n- ", start + 1)
    blank = text.find("\n\n", start)
    entry = text[start : min(i for i in (end, blank) if i != -1)]
    return set(re.findall(r"`([^`]+)`", entry))


def sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(SOURCES.glob("*.py")))


def test_the_methods_listed_are_the_methods_the_agent_answers() -> None:
    router = build_agent_router(cast(Agent, WeaverAcpAgent), use_unstable_protocol=True)
    routes: dict[str, Any] = {**router._requests, **router._notifications}
    answered = {method for method, route in routes.items() if route.func is not None}
    assert readme_list("methods it answers") == answered


def test_the_client_methods_listed_are_the_ones_the_agent_calls() -> None:
    code = sources()
    attrs = [name for name in dir(Client) if not name.startswith("_")]
    called = {name for name in attrs if re.search(rf"\.{name}\(", code)}
    listed = readme_list("methods it calls on the client")
    assert listed <= set(CLIENT_METHODS.values())
    # a client method's name is its wire name's last part, in the SDK's order of words
    as_attr = {
        "session/update": "session_update",
        "session/request_permission": "request_permission",
        "elicitation/create": "create_elicitation",
    }
    assert {as_attr.get(m, m) for m in listed} == called


def test_the_config_options_listed_are_the_ones_a_session_is_offered() -> None:
    choices = ConfigChoices("openai", "gpt-4o", "ide-helper", False, project_instructions=True)
    assert readme_list("config options") == {option.id for option in choices.options()}


def test_the_slash_commands_listed_are_the_ones_acp_runs() -> None:
    """The table's commands an ACP session runs (a profile's own come on top, per profile)."""
    assert readme_list("slash commands") == {f"/{c.name}" for c in commands_for("acp")}


def test_the_elicitation_modes_listed_are_the_ones_the_agent_builds() -> None:
    built = set(re.findall(r"Elicitation(Form|Url)(?:Session|Request)Mode\(", sources()))
    assert readme_list("elicitation modes") == {mode.lower() for mode in built}
