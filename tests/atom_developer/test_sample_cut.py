"""A verdict says when it covers only part of the sample.

The class: every way the sample given is more than what is checked (a message's block longer
than the lines kept, a named file past the bytes read). The guarantee, held where the sample
is read (``read_request``) and where the verdict is written: the lines checked are whole lines
of the sample, in order; whenever any were left out the request carries one sentence saying
so, and the reply's verdict line ends with it; when nothing was left out there is none.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.request import SAMPLE_BYTES, SAMPLE_LINES, read_request
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, atom_turn

LINE = st.text(st.sampled_from("abc =0123ERROR"), min_size=1, max_size=30).filter(str.strip)


@settings(max_examples=100, deadline=None)
@given(st.lists(LINE, max_size=SAMPLE_LINES * 2))
def test_a_message_sample_keeps_whole_lines_and_says_when_it_was_cut(lines: list[str]) -> None:
    request = read_request("extract the codes\n```\n" + "\n".join(lines) + "\n```", None)
    kept = request.sample.splitlines() if request.sample else []
    assert kept == lines[:SAMPLE_LINES]
    assert bool(request.sample_cut) is (len(lines) > SAMPLE_LINES)
    if request.sample_cut:
        assert str(len(lines)) in request.sample_cut


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(SAMPLE_BYTES - 300, SAMPLE_BYTES + 300), st.integers(5, 5000))
def test_a_file_sample_never_keeps_half_a_line(tmp_path: Path, size: int, width: int) -> None:
    line = ("x" * (width - 1)) + "\n"
    text = (line * (size // width + 1))[:size]
    (tmp_path / "app.log").write_text(text, encoding="utf-8")
    request = read_request("extract the codes in app.log", tmp_path)
    kept = request.sample.splitlines()
    assert kept == text.splitlines()[: len(kept)]  # each a whole line of the file, in order
    whole_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    assert bool(request.sample_cut) is (size > SAMPLE_BYTES or whole_lines > SAMPLE_LINES)


async def test_a_reply_on_a_cut_sample_says_it_in_its_verdict(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    lines = (ERROR_SAMPLE + "\n") * 40
    count = len(lines.splitlines())
    turn = await atom_turn(runtime, store, f"Extract the error code:\n```\n{lines}```")

    head = turn.reply.content.split("\n")[0]
    assert f"{SAMPLE_LINES} of {count}" in head
    assert any(f"{SAMPLE_LINES} of {count}" in stage for stage in turn.stages)
