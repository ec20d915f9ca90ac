"""How the offline model words tool outcomes in its answer: a conflict without the stale
diff flattened into the sentence, one-line ranges as "line N"."""

from __future__ import annotations

from agents.offline.conversation import Conversation, ToolResult
from agents.patch_review.patches import line_span
from agents.profiles.ide_helper.offline.answers import answer
from agents.profiles.ide_helper.offline.intent import parse_code_intent

CONFLICT = (
    "README.md has changed since patch p-1 was proposed, so it was not applied; read the file "
    "again and propose the change anew.\nThe stale diff was:\n```diff\n--- a/README.md\n"
    "+++ b/README.md\n@@ -1,1 +1,1 @@\n-# old\n+# new\n```"
)


def _conversation(*results: ToolResult) -> Conversation:
    return Conversation(
        system="",
        user_text="rename old to new in README.md",
        sender=None,
        participants=(),
        earlier_user_texts=(),
        results=results,
        tools={},
        tool_choice=None,
        prior_call_count=len(results),
    )


def test_a_conflict_is_quoted_as_its_sentence_without_the_stale_diff() -> None:
    conflict = ToolResult(
        name="propose_edit",
        args={"path": "README.md", "start_line": 1, "end_line": 1},
        call_id="c1",
        content=CONFLICT,
        is_error=True,
    )
    text = answer(_conversation(conflict), parse_code_intent("rename old to new in README.md"))
    assert "has changed since patch p-1 was proposed, so it was not applied" in text
    assert "```" not in text and "@@" not in text and "stale diff" not in text


def test_ranges_read_as_a_person_writes_them() -> None:
    assert line_span(120, 120) == "line 120"
    assert line_span(3, 9) == "lines 3-9"
