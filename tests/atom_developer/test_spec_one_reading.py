"""A YAML spec is read one way or refused with one sentence, and the safe stub's own spec
always reads back as the stub.

The classes:

- specs whose meaning depends on the reader: a key given twice in one mapping (PyYAML keeps
  the last, the user reads the first), several different patterns (only one was checked);
- text that reads differently from what is checked: a character that is not printable
  (bidirectional override, zero-width, raw control) anywhere refuses the spec, naming it;
- text that is not a spec at all: anything, lone surrogates included, is a spec or reasons,
  never an exception, and each reason is one line;
- the user's words inside the stub's spec: whatever the intent holds (quotes, YAML syntax,
  control characters, surrogates), the stub's spec reads back as its own pattern and kind, so
  the fallback's check never fails on what the user typed.
"""

from __future__ import annotations

from collections.abc import Callable

import yaml  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.stub import STUB_CODE, stub_spec
from agents.profiles.atom_developer.validation import avalidate
from agents.profiles.atom_developer.validation.one_line import printable
from agents.profiles.atom_developer.validation.spec import AtomSpec, read_spec
from agents.profiles.atom_developer.validation.static_check import SOURCE_CONTROLS
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, atom_turn
from tests.atom_developer.test_graph_provider import answer
from tests.support.fake_openai import FakeOpenAI

ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=60)
STUB = AtomSpec("regex:.+", "regex", "search", "contains")
HOSTILE_INTENT = "find \x1b[31m errors: 'x' \"y\" # z\n- [a] &b *c !!python/object \ud800 \x00"
KEYS = ("pattern", "kind", "regex_mode", "default_match", "name", "description")
SCALARS = st.sampled_from(["x", "regex:a", "a|b", "e*", "search", "exact", "1", "true"])


@settings(max_examples=200, deadline=None)
@given(ANY_TEXT)
def test_a_stub_spec_reads_back_as_the_stub_whatever_the_intent(intent: str) -> None:
    spec = stub_spec(intent)
    assert read_spec(spec) == (STUB, [])
    data = yaml.safe_load(spec)["item_spec"]
    assert (data["name"], data["stub"], data["atom"]) == ("safe_stub", True, "extract_context")


@settings(max_examples=200, deadline=None)
@given(ANY_TEXT | st.builds(lambda a, b: f"pattern: {a}\n{b}", ANY_TEXT, ANY_TEXT))
def test_any_text_is_a_spec_or_one_line_reasons(text: str) -> None:
    spec, errors = read_spec(text)
    assert (spec is None) == bool(errors)
    assert all(len(error.splitlines()) == 1 for error in errors)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(KEYS), SCALARS, SCALARS, st.booleans())
def test_a_key_given_twice_is_refused(key: str, first: str, second: str, nested: bool) -> None:
    lines = ["pattern: x", f"{key}: {first!r}", f"{key}: {second!r}"]
    if key == "pattern":
        lines = lines[1:]
    text = "\n".join(f"  {line}" if nested else line for line in lines)
    spec, errors = read_spec(f"item_spec:\n{text}\n" if nested else text + "\n")
    assert spec is None
    assert "twice" in errors[0]


@settings(max_examples=100, deadline=None)
@given(st.lists(SCALARS, min_size=2, max_size=4, unique=True), st.booleans())
def test_different_patterns_in_one_spec_are_refused(patterns: list[str], top: bool) -> None:
    text = "".join(f"item_{n}:\n  pattern: {p!r}\n" for n, p in enumerate(patterns))
    if top:
        text = f"pattern: {patterns[0]!r}\n" + text[text.index("item_1") :]
    spec, errors = read_spec(text)
    assert spec is None
    assert "patterns" in errors[0]


@settings(max_examples=4, deadline=None)
@given(st.integers(2_000, 4_000), st.sampled_from([("[", "]"), ("{a: ", "}")]))
def test_a_spec_nested_past_reading_is_one_sentence(depth: int, brackets: tuple[str, str]) -> None:
    opening, closing = brackets
    spec, errors = read_spec(f"pattern: x\na: {opening * depth}x{closing * depth}\n")
    assert spec is None
    assert len(errors) == 1
    assert "nests too deeply" in errors[0]


GOOD_SPEC = "item_spec:\n  name: error_code\n  pattern: 'regex:\\d{3}'\n  kind: regex\n"
INVISIBLE = st.characters(codec=None, categories=None).filter(
    lambda c: c not in SOURCE_CONTROLS and not printable(c)
)


@settings(max_examples=150, deadline=None)
@given(INVISIBLE, st.integers(0, len(GOOD_SPEC)))
def test_an_invisible_character_anywhere_refuses_the_spec(char: str, at: int) -> None:
    assert read_spec(GOOD_SPEC)[1] == []
    spec, errors = read_spec(GOOD_SPEC[:at] + char + GOOD_SPEC[at:])
    assert spec is None
    assert len(errors) == 1
    if not "\ud800" <= char <= "\udfff":
        assert f"U+{ord(char):04X}" in errors[0]


def test_copies_of_one_pattern_by_a_yaml_merge_are_one_pattern() -> None:
    text = "base: &base {pattern: 'regex:\\d+', kind: regex}\nitem_spec:\n  <<: *base\n"
    assert read_spec(text) == (AtomSpec("regex:\\d+", "regex"), [])
    shadowing = "base: &base {pattern: x}\nitem_spec:\n  <<: *base\n  pattern: y\n"
    assert read_spec(shadowing)[0] is None


async def test_the_stub_passes_its_own_check_for_a_hostile_intent() -> None:
    report = await avalidate(STUB_CODE, stub_spec(HOSTILE_INTENT), "")
    assert report.valid, report.errors


async def test_a_fallback_turn_for_a_hostile_request_answers_a_validated_stub(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    broken = "import os\n\ndef extract_context(text, source_file):\n    return os.listdir('.')\n"
    fake_openai.script(*[answer(broken)] * 4)
    request = f"Extract the \x1b[31merror\x1b[0m code: it's a 'quoted' # thing\n```\n{ERROR_SAMPLE}\n```"  # fmt: skip
    turn = await atom_turn(runtime, store, request, model=openai_model())

    assert turn.trace["stub"]
    assert turn.trace["stub_valid"], turn.trace["report"]
    assert not turn.trace["valid"]  # a stub is never stored as a validated atom
    assert read_spec(turn.artifact("yaml")) == (STUB, [])
