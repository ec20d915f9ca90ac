"""A verdict says when it covers only part of the sample, or none.

The class: every way the sample given is more than what is checked (a message's block longer
than the lines kept, a named file past the bytes read). The guarantee, held where the sample
is read (``read_request``) and where the verdict is written: the lines checked are whole lines
of the sample, in order; whenever any were left out the request carries one sentence saying
so, and the reply's verdict line ends with it; when nothing was left out there is none; a
verdict reached with no sample at all says that it covers no log line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.request import SAMPLE_BYTES, SAMPLE_LINES, read_request
from agents.profiles.atom_developer.verdict import NO_SAMPLE, sample_scope
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, atom_turn
from tests.atom_developer.test_graph_provider import GOOD, SPEC, answer
from tests.atom_developer.test_request_on_provider import check
from tests.support.fake_openai import FakeOpenAI

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


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["", "  \n\t", "x"]), st.sampled_from(["", "The sample was cut."]))
def test_a_verdicts_scope_names_a_missing_or_cut_sample(sample: str, cut: str) -> None:
    scope = sample_scope(sample, cut)
    if not sample.strip():
        assert scope == NO_SAMPLE
    else:
        assert scope == cut


async def test_a_draft_without_a_sample_says_its_verdict_covers_no_log_line(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(check(True), answer(GOOD, SPEC))
    turn = await atom_turn(runtime, store, "Write an atom for error codes", model=openai_model())

    assert turn.trace["valid"]
    assert turn.reply.content.split("\n")[0].endswith(NO_SAMPLE)
