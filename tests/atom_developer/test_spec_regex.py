"""A spec's regex that the compiler cannot take is one sentence, never a crash.

The class: whatever stops ``re.compile`` on a spec's ``regex:`` part (a syntax error, a
repetition count past the engine's limit, groups nested past the parser's recursion). The
guarantee, held by the spec reader: the spec is refused with one line per such part, in the
chat's validation and through ``weaver-tui atom check`` alike (exit 1, no traceback).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.validation.spec import read_spec
from tests.atom_developer.conftest import ATOMS
from tests.cli.conftest import weaver

__all__ = ["weaver"]

PIECE = st.one_of(
    st.text(st.sampled_from("()[]{}*+?^$.a0,-\\"), max_size=6),
    st.integers(0, 2**40).map(lambda n: f"a{{{n}}}"),
    st.integers(1, 4000).map(lambda n: "(" * n + "a" + ")" * n),
    st.integers(1, 4000).map(lambda n: "(?:" * n + "a" + ")" * n),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(PIECE, min_size=1, max_size=4), st.booleans())
def test_any_regex_is_a_spec_or_one_line_reasons(pieces: list[str], alternatives: bool) -> None:
    parts = ["regex:" + piece for piece in pieces]
    pattern = "|".join(parts) if alternatives else "regex:" + "".join(pieces)
    spec, errors = read_spec(f"pattern: {pattern!r}\n")
    assert (spec is None) == bool(errors)
    assert all(len(error.splitlines()) == 1 and len(error) < 400 for error in errors)


def test_the_check_command_says_a_regex_nests_too_deeply(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("pattern: 'regex:" + "(" * 3000 + "a" + ")" * 3000 + "'\n")
    done = weaver("atom", "check", str(ATOMS / "good.py"), "--spec", str(spec))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "- Level 3 · twin consistency: failed" in done.stdout
