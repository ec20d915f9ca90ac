"""``weaver-tui space record``: writes a space's record as Markdown to a file, a participant's
own copy with ``--participant``; a name that is not a participant is one sentence."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore
from tests.mediator.test_record import session

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def test_the_verb_writes_the_record_and_refuses_a_stranger_in_one_sentence(
    weaver: Weaver, tmp_path: Path
) -> None:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        space = session(store, {"Kim": "Kim's own worry."}, {})
    done = weaver("space", "record", "--conversation", space, "--participant", "Kim")
    assert done.returncode == 0, done.stderr
    written = tmp_path / f"space-record-{space[:8]}-kim.md"
    assert f"to {written.name}" in done.stdout
    assert "Kim's own worry." in written.read_text(encoding="utf-8")
    refused = weaver("space", "record", "--conversation", space, "--participant", "Mallory")
    assert refused.returncode == 2
    assert "'Mallory' is not a participant of this space" in refused.stderr
    assert "Traceback" not in refused.stderr
