"""A reply's verdict line says what the validation established, no more.

The class: every combination of level outcomes, a sandbox that never ran the code, the stub,
fixes, and whose code it is. The guarantee, held by :func:`verdict_head`: "Valid atom" only
for code every level passed and the sandbox ran, naming each level that was skipped (a user's
file without a spec never passed "every check"); "Safe stub" only for a stub that passed its
own check; "Not checked" whenever the code was never run.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.verdict import verdict_head
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.conftest import atom_file
from tests.atom_developer.graph_support import atom_turn

LEVEL = st.fixed_dictionaries(
    {
        "level": st.integers(1, 3),
        "status": st.sampled_from(["passed", "failed", "skipped"]),
        "note": st.sampled_from(["", "no YAML spec given"]),
    }
)
REPORT = st.fixed_dictionaries(
    {
        "levels": st.lists(LEVEL, max_size=3),
        "valid": st.booleans(),
        "unchecked": st.sampled_from(["", "the sandbox cannot lock itself down"]),
    }
)


@settings(max_examples=200, deadline=None)
@given(REPORT, st.booleans(), st.integers(0, 3), st.booleans())
def test_the_verdict_line_claims_only_what_the_report_established(
    report: dict[str, Any], stub: bool, fixes: int, by_user: bool
) -> None:
    head = verdict_head(report, stub, fixes, by_user)
    established = report["valid"] and not report["unchecked"]
    assert head.startswith("**Valid atom**") is (established and not stub)
    assert head.startswith("**Safe stub.**") is (established and stub)
    assert head.startswith("**Not checked.**") is bool(report["unchecked"])
    if head.startswith("**Valid atom**"):
        skipped = [level for level in report["levels"] if level["status"] == "skipped"]
        assert ("every check that ran" in head) is bool(skipped)
        for level in skipped:
            assert f"level {level['level']} was skipped" in head


async def test_a_users_file_without_a_spec_is_not_said_to_pass_every_check(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    code = atom_file("only_existence")
    turn = await atom_turn(runtime, store, f"Check my atom:\n```python\n{code}\n```")

    assert turn.trace["valid"]
    head = turn.reply.content.split("\n")[0]
    assert "passed every check that ran" in head
    assert "level 3 was skipped (no YAML spec given)" in head
