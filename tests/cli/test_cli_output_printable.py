"""Nothing a headless verb writes carries an escape sequence or a control character: the
command puts one printable filter in front of stdout and stderr for every verb that does not
own the terminal (``weaver_tui.core.cli.output``). Checked with generated hostile text planted
where verbs quote it (a conversation's title, a provider's answer, an atom's exception), and
by reading the code: no command module writes around the filter."""

from __future__ import annotations

import ast
import re
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply
from weaver_tui.core.cli.output import owns_the_terminal

Weaver = Callable[..., subprocess.CompletedProcess[str]]
ROOT = Path(__file__).resolve().parents[2]
UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

SEQUENCES = [
    "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07",  # OSC 52: write the clipboard
    "\x1b]0;owned\x07",  # OSC 0: the window title
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x9b31m",  # 8-bit CSI
    "\x1bP1$r\x1b\\",  # DCS
    "\x1b[21t",  # report the window title
    "\x1b]8;;http://evil.example\x07link\x1b]8;;\x07",  # a hidden link
    "\x07\x08\x7f\x00\r",
]
hostile = st.lists(
    st.sampled_from(SEQUENCES) | st.text(alphabet=st.characters(max_codepoint=0x9F), max_size=8),
    min_size=1,
    max_size=6,
).map("".join)


def _clean(done: subprocess.CompletedProcess[str]) -> None:
    for stream in (done.stdout, done.stderr):
        assert not UNPRINTABLE.search(stream), repr(stream[:300])


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(title=hostile)
def test_a_hostile_title_is_listed_printable(weaver: Weaver, tmp_path: Path, title: str) -> None:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    with SqliteConversationStore(data / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper", "placeholder")
    # a title written around the store's own cleaning, as an old or crafted file may hold one
    with sqlite3.connect(data / "weaver.db") as db:
        db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation.id))
    _clean(weaver("conversations"))


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(answer=hostile)
def test_a_hostile_answer_is_streamed_printable(
    weaver: Weaver, fake_openai: FakeOpenAI, answer: str
) -> None:
    fake_openai.script(Reply(f"Here it is: {answer} done."))
    done = weaver(
        "ask", "hello",
        env={"WEAVER_PROVIDER": "openai-compatible", "WEAVER_BASE_URL": fake_openai.base_url,
             "WEAVER_API_KEY": "sk-test-not-a-real-key", "WEAVER_MODEL": "fake-model"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    _clean(done)
    assert done.stdout.startswith("Here it is:")


def test_an_atoms_hostile_exception_is_reported_printable(weaver: Weaver, tmp_path: Path) -> None:
    """The reported case: an atom raising an exception whose text writes the clipboard."""
    good = (ROOT / "tests" / "atom_developer" / "atoms" / "good.py").read_text(encoding="utf-8")
    raising = "    items = []\n    raise ValueError('\\x1b]52;c;Y3VybA==\\x07\\x1b[2J\\x9b31m')\n"
    atom = tmp_path / "atom.py"
    atom.write_text(good.replace("    items = []\n", raising, 1), encoding="utf-8")
    done = weaver("atom", "check", str(atom))
    assert done.returncode == 1, done.stderr
    _clean(done)
    assert "ValueError" in done.stdout


WRITES_AROUND = {"__stdout__", "__stderr__"}
"""Names that reach the terminal around the filter."""
BUFFER_USERS = {
    "weaver_tui/core/cli/space_join.py",  # the seat's relay: its own allowlist filter of sequences
    "weaver_tui/core/cli/ask_verb.py",  # reads piped bytes from stdin (never writes)
}


def _command_modules() -> list[Path]:
    return sorted([*(ROOT / "weaver_tui" / "cli").glob("*.py"),
                   *(ROOT / "agents" / "profiles").glob("*/commands.py")])  # fmt: skip


def test_no_command_module_writes_around_the_filter() -> None:
    for path in _command_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        relative = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in WRITES_AROUND, f"{relative}:{node.lineno}"
                if node.attr == "buffer":
                    assert relative in BUFFER_USERS, f"{relative}:{node.lineno}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func
                is_os_write = isinstance(target.value, ast.Name) and target.value.id == "os"
                assert not (is_os_write and target.attr == "write"), f"{relative}:{node.lineno}"


def test_only_the_verbs_that_own_the_terminal_are_left_unfiltered() -> None:
    assert owns_the_terminal(None, None)  # the app
    assert owns_the_terminal("acp", None)
    assert owns_the_terminal("serve", None)
    assert owns_the_terminal("space", "join")
    assert owns_the_terminal("space", "seat")
    for verb, action in [("ask", None), ("conversations", None), ("export", None),
                         ("atom", "check"), ("kb", "add"), ("space", "open"),
                         ("space", "close"), ("memory", "list"), ("import", None)]:  # fmt: skip
        assert not owns_the_terminal(verb, action), verb


def test_a_progress_line_keeps_its_leading_carriage_return_and_nothing_else() -> None:
    import io

    from weaver_tui.core.cli.output import PrintableStream

    out = io.StringIO()
    stream = PrintableStream(out)
    stream.write("\r[##  ] 2/4 notes.md")
    stream.write("\rsafe\rEVIL\x1b]52;c;x\x07")
    assert out.getvalue() == "\r[##  ] 2/4 notes.md\rsafeEVIL"
