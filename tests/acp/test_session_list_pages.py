"""``session/list``'s pages over generated stores: paging through every page lists each of
the profile's conversations in the folder asked for exactly once, newest first, and nothing of
another profile or folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.sqlite_store import SqliteConversationStore
from weaver_tui.core.acp_agent import session_list

FOLDERS = ("/work/a", "/work/b", None)


@settings(max_examples=25, deadline=None)
@given(
    made=st.lists(
        st.tuples(st.sampled_from(["ide-helper", "mediator"]), st.sampled_from(FOLDERS)),
        max_size=130,
    ),
    wanted=st.sampled_from(["/work/a", None]),
)
def test_every_page_together_lists_each_match_once_newest_first(
    made: list[tuple[str, str | None]], wanted: str | None
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteConversationStore(Path(folder) / "weaver.db")
        try:
            expected = []
            for profile, root in made:
                meta = {"project_root": root} if root else {}
                conversation = store.create_conversation(profile, "t", meta=meta)
                if profile == "ide-helper" and (wanted is None or root == wanted):
                    expected.append(conversation.id)
            seen: list[str] = []
            cursor: str | None = None
            for _ in range(20):
                page = session_list.list_page(store, "ide-helper", wanted, cursor)
                assert len(page.sessions) <= session_list.PAGE
                seen += [s.session_id for s in page.sessions]
                cursor = page.next_cursor
                if cursor is None:
                    break
            assert seen == list(reversed(expected))  # newest first, each once
        finally:
            store.close()
