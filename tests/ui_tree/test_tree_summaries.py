"""A tree line says in plain text what a message said, and to whom: Markdown is taken off,
and a message said through a tool reads as ``to Alex: ...`` / ``to everyone: ...``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storage.models import MessageRecord
from tests.ui_tree.conftest import TREE_SIZE, TreeHost, tree_host
from tests.ui_tree.records import RecordFactory
from weaver_tui.widgets.conversation_tree.labels import PRIVATE_MARK
from weaver_tui.widgets.conversation_tree.summaries import plain, summary


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        (
            "Hello! I'm **weaver-of-threads**, your helper.",
            "Hello! I'm weaver-of-threads, your helper.",
        ),
        ("## Plan for *today*", "Plan for today"),
        ("- first `item` here", "first item here"),
        ("1. Read [the guide](https://example.com/guide) first", "Read the guide first"),
        ("> quoted __strong__ and _soft_ words", "quoted strong and soft words"),
        ("![diagram](pic.png) ~~old~~ new", "diagram old new"),
        ("- [x] done: `a * b` stays as code", "done: a * b stays as code"),
        (
            "snake_case_name and 2 * 3 * 4 are not emphasis",
            "snake_case_name and 2 * 3 * 4 are not emphasis",
        ),
    ],
)
def test_markdown_reads_as_plain_text(markdown: str, shown: str) -> None:
    assert plain(markdown) == shown


def test_a_reply_starting_with_a_code_fence_shows_its_first_code_line() -> None:
    f = RecordFactory()
    reply = f.add("assistant", "```python\nprint('hi')\n```\nThat prints hi.")
    assert summary(reply) == "print('hi')"


def mediator_turn() -> tuple[RecordFactory, dict[str, MessageRecord]]:
    """A mediator turn as the runtime stores it: the user's private message, the model's two
    tool calls (one private reply, one shared post), their results, and the closing reply."""
    f = RecordFactory()
    question = f.add("user", "I worry about **money**.", sender="Alex", visibility="Alex")
    calls = f.add(
        "assistant",
        "",
        question,
        tool_calls=[
            {
                "id": "c1",
                "name": "reply_privately",
                "args": {"recipient": "Alex", "content": "Thank you, **Alex**. I hear you."},
            },
            {"id": "c2", "name": "post_to_shared", "args": {"content": "Let us list costs."}},
        ],
    )
    private = f.add(
        "tool",
        "Delivered privately to Alex; only Alex can read it.",
        calls,
        name="reply_privately",
        tool_call_id="c1",
        visibility="Alex",
        recipient="Alex",
        delivered_content="Thank you, **Alex**. I hear you.",
    )
    shared = f.add(
        "tool",
        "Posted to the shared space; Alex and Sam can read it.",
        private,
        name="post_to_shared",
        tool_call_id="c2",
        visibility="shared",
        recipient="shared",
        delivered_content="Let us list costs.",
    )
    closing = f.add("assistant", "I replied privately to **Alex**.", shared)
    return f, {
        "question": question,
        "calls": calls,
        "private": private,
        "shared": shared,
        "closing": closing,
    }


async def test_mediator_lines_say_what_was_said_and_to_whom() -> None:
    f, r = mediator_turn()
    async with TreeHost(f.records, r["closing"].id).run_test(size=TREE_SIZE) as pilot:
        await pilot.pause()
        tree = tree_host(pilot).conversation_tree
        calls = tree.label_text(r["calls"].id)
        assert "to Alex: Thank you, Alex. I hear you. · to everyone: Let us" in calls
        assert "reply_privately" not in calls
        assert "**" not in calls
        private = tree.label_text(r["private"].id)
        assert "to Alex: Thank you, Alex. I hear you." in private
        assert PRIVATE_MARK not in private
        assert "Delivered" not in private
        assert "to everyone: Let us list costs." in tree.label_text(r["shared"].id)
        assert tree.label_text(r["closing"].id).endswith("I replied privately to Alex.")
        # a participant's own private message keeps its mark, and loses its Markdown
        assert f"{PRIVATE_MARK}Alex I worry about money." in tree.label_text(r["question"].id)


def test_other_tool_calls_still_name_the_tool() -> None:
    f = RecordFactory()
    call = f.add(
        "assistant",
        "",
        tool_calls=[{"id": "s", "name": "search_code", "args": {"query": "def main"}}],
    )
    assert summary(call).startswith("→ search_code(")
    # a call with a message beside other arguments is not a message to anyone
    write = f.add(
        "assistant", "", tool_calls=[{"name": "write", "args": {"path": "a.md", "content": "# A"}}]
    )
    assert summary(write).startswith("→ write(")


def test_mediator_tree_snapshot(snap_compare: Callable[..., bool]) -> None:
    f, r = mediator_turn()
    assert snap_compare(TreeHost(f.records, r["closing"].id), terminal_size=(80, 10))


def test_versions_that_begin_alike_leave_out_the_words_they_share() -> None:
    from weaver_tui.widgets.conversation_tree.summaries import distinct_text

    defined = "where is load_settings defined in this project?"
    called = "where is load_settings called from in this project?"
    assert distinct_text(defined, [called]) == "…defined in this project?"
    assert distinct_text(called, [defined]) == "…called from in this project?"
    assert distinct_text("Use pathlib", ["Use open()"]) == "Use pathlib"  # differ early
    assert distinct_text(defined, [defined]) == defined  # nothing differs: whole
    assert distinct_text(defined, []) == defined
