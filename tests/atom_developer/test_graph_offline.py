"""The draft → validate → reflect → fallback loop end to end on the offline model: every path
of the graph, the stage lines the tool pane shows, and the reply's code, spec and report. The
validator runs the generated code in its real sandbox subprocess."""

from __future__ import annotations

from pathlib import Path

from agents.profiles.atom_developer.graph import FIXING, VALIDATING
from agents.profiles.atom_developer.traits import reply_badge
from agents.profiles.atom_developer.validation import avalidate
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import BROKEN_DRAFT, ERROR_SAMPLE, atom_turn


async def test_a_first_draft_that_passes_is_answered_with_code_spec_and_report(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    turn = await atom_turn(
        runtime, store, f"Extract the error code when it is 500 or 503:\n```\n{ERROR_SAMPLE}\n```"
    )

    assert "read_request: 3 sample line(s) from your message" in turn.stages
    assert f"validate: {VALIDATING}" in turn.stages
    assert "validate: all levels passed" in turn.stages
    assert not any(line.startswith("reflect:") for line in turn.stages)
    assert turn.trace["valid"]
    assert turn.trace["fixes"] == 0
    assert not turn.trace["stub"]
    assert [s["stage"] for s in turn.trace["stages"]] == ["read_request", "draft", "validate"]
    code, spec = turn.artifact("python"), turn.artifact("yaml")
    assert "def extract_context" in code
    assert "pattern: '500|503'" in spec
    assert "kind: alternatives" in spec
    content = turn.reply.content
    assert content.startswith("**Valid atom**: the draft passed every check at once.")
    assert "```python" in content
    assert "```yaml" in content
    assert "Level 2 · contract run: passed" in content
    assert reply_badge(turn.reply.meta) == "valid"
    # what was saved is what passed: checking it again gives the same verdict
    assert (await avalidate(code, spec, ERROR_SAMPLE)).valid


async def test_a_broken_draft_the_offline_model_cannot_fix_ends_in_the_safe_stub(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    message = (
        f"Check my atom for the error code:\n```python\n{BROKEN_DRAFT}```\n```\n{ERROR_SAMPLE}\n```"
    )
    turn = await atom_turn(runtime, store, message)

    validations = [line for line in turn.stages if line.startswith("validate: ") and VALIDATING not in line]  # fmt: skip
    assert "forbidden import 'os'" in validations[0]
    assert f"reflect: {FIXING} (fix 1 of 3)" in turn.stages
    assert turn.trace["stub"]
    assert turn.trace["fixes"] == 3
    said = turn.reply.content.partition("**What the last fix said**")[2]
    assert "cannot fix code" in said  # the demo says it cannot, rather than pretending
    assert reply_badge(turn.reply.meta) == "safe stub"


async def test_a_sample_without_the_wanted_field_ends_in_the_safe_stub_after_three_fixes(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    # the key (``error``) is in the sample, but no line holds a value after it
    sample = "2024-01-01 10:00:00 INFO all good, no error\n2024-01-01 10:00:01 INFO still no error"
    turn = await atom_turn(runtime, store, f"Extract the error code:\n```\n{sample}\n```")

    stages = [s["stage"] for s in turn.trace["stages"]]
    assert stages.count("validate") == 4
    assert stages.count("reflect") == 3
    assert stages[-1] == "fallback"
    assert [line for line in turn.stages if line.startswith("reflect: Type")][-1].endswith(
        "(fix 3 of 3)"
    )
    assert turn.trace["stub"]
    assert turn.trace["stub_valid"]  # the stub passed its own check...
    assert not turn.trace["valid"]  # ...and is never stored as a validated atom
    assert turn.reply.content.startswith("**Safe stub.**")
    assert "extract_context finds nothing in the 2 sample lines" in turn.reply.content
    # The last fix's own words say why no rewrite could help.
    said = turn.reply.content.partition("**What the last fix said**")[2]
    assert "cannot fix code" in said
    assert "SAFE STUB" in turn.artifact("python")
    assert "stub: true" in turn.artifact("yaml")
    assert reply_badge(turn.reply.meta) == "safe stub"


async def test_the_sample_may_be_a_file_under_the_project_root(
    atoms: tuple[AgentRuntime, SqliteConversationStore], tmp_path: Path
) -> None:
    runtime, store = atoms
    project = tmp_path / "project"
    (project / "logs").mkdir(parents=True)
    (project / "logs" / "app.log").write_text(ERROR_SAMPLE + "\n", encoding="utf-8")
    turn = await atom_turn(
        runtime, store, "Extract the error code from logs/app.log", project_root=project
    )
    assert "read_request: 3 sample line(s) from logs/app.log" in turn.stages
    assert turn.trace["valid"]


async def test_a_sample_file_that_leads_outside_the_project_is_not_read(
    atoms: tuple[AgentRuntime, SqliteConversationStore], tmp_path: Path
) -> None:
    runtime, store = atoms
    project = tmp_path / "project"
    project.mkdir()
    secret = tmp_path / "secret.log"
    secret.write_text("2024-01-01 ERROR code=999 the secret line\n", encoding="utf-8")
    (project / "app.log").symlink_to(secret)
    turn = await atom_turn(
        runtime, store, "Extract the error code from app.log", project_root=project
    )
    assert any(
        line.startswith("read_request:") and "outside the project root" in line
        for line in turn.stages
    )
    assert "999" not in turn.reply.content
    assert "secret line" not in turn.reply.content


async def test_a_request_with_nothing_to_work_on_gets_a_guide_not_an_atom(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    turn = await atom_turn(runtime, store, "hello there")
    assert turn.reply.content.startswith("Tell me what to pull out of a log")
    assert "artifacts" not in turn.reply.meta
