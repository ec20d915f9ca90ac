"""The offline model's rename changes every occurrence or none: generated files (occurrences
near and far apart, lines holding a form feed or U+2028) either get one patch that renames
each whole-word occurrence and changes nothing else, or no patch at all; never the first
occurrence alone."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.patch_review.patches import make_patch
from agents.patch_review.review import find_pending_review
from agents.profiles.ide_helper.offline import BLOCK, numbered, rename_edit
from agents.profiles.ide_helper.reading import read_text_file
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ToolFinished
from tests.ide_helper.test_offline_model import ask

_line = st.sampled_from(
    ["", "x = 1", "old = 2", "fold = old", "old_name = 3", "s = 'a\u2028old'", "\x0cold()"]
)
_filler = st.sampled_from(["", "x = 1", "pass"])
_WORD = re.compile(r"(?<!\w)old(?!\w)")


@given(
    head=st.lists(_line, min_size=1, max_size=6),
    gap=st.lists(_filler, max_size=BLOCK + 20),
    tail=st.lists(_line, max_size=6),
)
@settings(max_examples=80, deadline=None)
def test_every_occurrence_in_one_patch_or_none(
    head: list[str], gap: list[str], tail: list[str]
) -> None:
    lines = [*head, *gap, *tail]
    text = "\n".join(lines) + "\n"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "m.py").write_bytes(text.encode())
        read = read_text_file(root, "m.py")
        shown = numbered(read)
        assert shown == dict(enumerate(lines, start=1))  # lines as the file holds them
        edit = rename_edit(shown, "old", "new")
        hits = [n for n, line in enumerate(lines, start=1) if _WORD.search(line)]
        if edit is None:
            assert not hits or hits[-1] - hits[0] > BLOCK
            return
        patch = make_patch(root, "m.py", edit["start_line"], edit["end_line"], edit["new_content"])
        assert patch.new_content == _WORD.sub("new", text)


async def test_far_apart_occurrences_get_no_patch_at_all(
    store: Any, tmp_path: Path, project: Path
) -> None:
    body = "def farewell():\n    pass\n" + "x = 1\n" * (BLOCK + 5) + "farewell()\n"
    (project / "src/far.py").write_text(body)
    conversation = store.create_conversation(
        "ide-helper", "offline", meta={"project_root": str(project)}
    )
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver)
        events = await ask(
            runtime, store, conversation.id, "Rename `farewell` to `goodbye` in src/far.py"
        )
    names = [e.name for e in events if isinstance(e, ToolFinished)]
    assert "propose_edit" not in names
    assert find_pending_review(store, conversation.id) is None
    assert (project / "src/far.py").read_text() == body
    answer = store.get_message(events[-1].leaf_id).content
    assert str(len(body.splitlines())) in answer  # the far occurrence is named
