"""A ``weaver-tui`` process imports what its verb and profile need: listing the verbs or running a
profile's own light verb imports no graph, model or MCP library and no profile's graph, and a
turn of one profile (on the offline model, tool call and all) imports no other profile and no
Textual. Real processes: what a fresh interpreter has loaded is the fact under test."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

import agents.profile_registry as registry
from agents.profile import ProfileTraits, ProfileVerb

CliRun = Callable[..., subprocess.CompletedProcess[str]]

REPORT_MODULES = (
    "import sys\n"
    "from weaver_tui.launch import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "except SystemExit as exc:\n"
    "    code = exc.code\n"
    "loaded = sorted(name for name, module in sys.modules.items() if module is not None)\n"
    "print('LOADED ' + ' '.join(loaded), file=sys.stderr)\n"
    "sys.exit(code)\n"
)
"""Runs the command as ``python -m weaver_tui`` would, then names every module it loaded."""

HEAVY_LIBRARIES = ("langgraph", "langchain_core", "langsmith", "mcp", "openai", "textual")


def _loaded(result: subprocess.CompletedProcess[str]) -> set[str]:
    [line] = [line for line in result.stderr.splitlines() if line.startswith("LOADED ")]
    return set(line.split()[1:])


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY_LIBRARIES)


def _beyond_traits(modules: set[str]) -> list[str]:
    """The modules of any profile other than its package and its light ``traits``."""
    return sorted(
        m
        for m in modules
        if m.startswith("agents.profiles.") and m.count(".") > 2 and not m.endswith(".traits")
    )


def test_help_lists_the_profiles_verbs_from_their_traits_alone(subprocess_cli: CliRun) -> None:
    result = subprocess_cli("--help", code=REPORT_MODULES)

    assert result.returncode == 0, result.stderr
    listed = {line.split()[0] for line in result.stdout.splitlines() if line.startswith("    ")}
    assert {"ask", "kb", "memory", "atom"} <= listed
    modules = _loaded(result)
    assert _heavy(modules) == []
    assert _beyond_traits(modules) == []


def test_a_profile_verb_imports_its_handler_and_nothing_of_the_graphs(
    subprocess_cli: CliRun,
) -> None:
    result = subprocess_cli("kb", "list", code=REPORT_MODULES)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()  # the shipped sample's collections
    modules = _loaded(result)
    assert _heavy(modules) == []
    assert "agents.profiles.paper_pilot.commands" in modules
    paper_pilot = "agents.profiles.paper_pilot."
    assert [m for m in _beyond_traits(modules) if not m.startswith(paper_pilot)] == []
    assert f"{paper_pilot}graph" not in modules
    assert f"{paper_pilot}profile" not in modules


def test_an_offline_turn_shows_its_tool_call_and_imports_no_other_profile_nor_textual(
    subprocess_cli: CliRun,
) -> None:
    """``ask`` on the offline model streams the reply, shows the tool it called and the
    conversation, and its process imports the one profile it runs and no Textual."""
    result = subprocess_cli(
        "--provider", "offline", "ask", "--profile", "ide-helper", "list the files",
        code=REPORT_MODULES,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert "→ list_files" in result.stderr
    assert "conversation: " in result.stderr
    modules = _loaded(result)
    others = tuple(
        package for name, package in registry.PROFILE_PACKAGES.items() if name != "ide-helper"
    )
    assert sorted(m for m in modules if m.startswith(others)) == []
    assert "agents.profiles.ide_helper.graph" in modules
    # neither MCP (no server is configured) nor httpx's own command-line client and its
    # terminal libraries
    unused = ("mcp", "textual", "click", "rich", "pygments")
    assert [m for m in modules if m.split(".")[0] in unused] == []
    # the tools load their engines when a call needs them: this project has no .gitignore
    # (no ignore matcher) and nothing was searched for a regular expression
    assert [m for m in modules if m.split(".")[0] in ("pathspec", "regex")] == []


def test_a_verb_whose_handler_cannot_be_imported_says_so_in_one_sentence(
    weaver: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = ProfileVerb("mend", "a verb whose handler is gone", "tests.cli.no_such_module:MEND")
    monkeypatch.setitem(registry.PROFILE_PACKAGES, "mender", "tests.cli.no_such_profile")
    monkeypatch.setitem(registry._traits, "mender", ProfileTraits(commands=(broken,)))

    result = weaver("mend")

    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("weaver-tui: the verb 'mend' could not be loaded")
    assert "Traceback" not in result.stderr


def test_a_profile_whose_traits_cannot_be_imported_costs_only_its_own_verbs(
    weaver: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.PROFILE_PACKAGES, "mender", "tests.cli.no_such_profile")

    listed = weaver("--help")
    verb = weaver("memory", "list")

    assert listed.returncode == 0, listed.stderr
    assert " kb " in listed.stdout
    assert verb.returncode == 0, verb.stderr
