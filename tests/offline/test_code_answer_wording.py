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


def _result(name: str, call_id: str, content: str, is_error: bool = False, **args: object):
    return ToolResult(name=name, args=args, call_id=call_id, content=content, is_error=is_error)


def test_a_failed_read_is_told_unless_a_later_read_of_the_file_made_it_good() -> None:
    missing = _result("read_file", "c1", "There is no file 'app.py'.", True, path="app.py")
    found = _result(
        "read_file", "c2", "src/app.py (lines 1-1 of 1)\n   1 | x = 1", path="src/app.py"
    )
    intent = parse_code_intent("read app.py")
    assert "did not work" in answer(_conversation(missing), intent)
    assert "did not work" not in answer(_conversation(missing, found), intent)
    # A refused edit is told even when the file was read again after it.
    conflict = _result("propose_edit", "c3", CONFLICT, True, path="README.md")
    reread = _result(
        "read_file", "c4", "README.md (lines 1-1 of 1)\n   1 | # old", path="README.md"
    )
    intent = parse_code_intent("rename old to new in README.md")
    assert "was not applied" in answer(_conversation(conflict, reread), intent)
