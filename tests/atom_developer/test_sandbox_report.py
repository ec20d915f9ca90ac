"""What the fork server writes, and what each child replies, read without ever failing.

The guarantee for the whole class: whatever bytes arrive on the framing channel (records that are
not the protocol's, replies whose dict items are not pairs, nesting 200,000 deep, a line cut at
the output limit), the run's result is either a report of plain values (``None``, bools, numbers,
strings, lists, dicts and :class:`Opaque`) or stopped with one sentence; level 2's judges read it
without an exception, and an unreadable report is a failed level 2 saying so. The same holds
end to end for whatever a real child writes on its own reply pipe (a length that lies, bytes that
are not JSON).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer import validation
from agents.profiles.atom_developer.validation.contract import contract_cases
from agents.profiles.atom_developer.validation.sandbox import (
    DEFAULT_LIMITS,
    UNREADABLE,
    Opaque,
    Run,
    SandboxResult,
    run_atoms,
)
from tests.atom_developer.conftest import atom_file

CASES = contract_cases(("extract_context", "validate_logic", "check_existence"))
CALLS = [case.call for case in CASES]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)  # fmt: skip


def _tagged(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.builds(lambda items: {"type": "list", "items": items}, st.lists(children, max_size=3)),
        st.builds(
            lambda pairs: {"type": "dict", "items": pairs},
            st.lists(st.lists(children, min_size=1, max_size=3), max_size=3),
        ),
    )


VALID = st.one_of(
    st.builds(lambda v: {"type": "str", "value": v}, st.text(max_size=8)),
    st.builds(lambda v: {"type": "int", "value": v}, st.integers(-5, 5)),
    st.builds(lambda v: {"type": "bool", "value": v}, st.booleans()),
    st.builds(lambda v: {"type": "float", "value": v}, st.floats(allow_nan=False)),
    st.just({"type": "None", "value": None}),
    st.builds(
        lambda kind, text: {"type": kind, "repr": text}, st.text(max_size=6), st.text(max_size=6)
    ),
)
PLAIN = st.one_of(
    VALID,
    VALID,
    VALID,
    st.builds(
        lambda kind, value: {"type": kind, "value": value},
        st.sampled_from(["None", "bool", "int", "float", "str", "x"]),
        JSON,
    ),
    JSON,
)
TAGGED = st.recursive(PLAIN, _tagged, max_leaves=10)
REPLIES = st.one_of(
    st.builds(
        lambda ok, value: {"ok": ok, "value": value, "error": "E", "args": [], "kwargs": {}},
        st.booleans(), VALID,
    ),
    st.builds(
        lambda ok, value, args: {"ok": ok, "value": value, "error": "E", "args": args, "kwargs": {}},
        st.booleans(), TAGGED, st.lists(TAGGED, max_size=2),
    ),
    JSON,
).map(json.dumps) | st.text(max_size=20) | st.just("[" * 200_000)  # fmt: skip


@st.composite
def streams(draw: st.DrawFn) -> bytes:
    """A fork server's output: the protocol's records around generated replies, with junk
    lines, repeated or missing records, and a cut anywhere."""
    loaded = draw(st.sampled_from([{"loaded": True}] * 3 + [{"loaded": False, "load_error": "E"}]))
    records: list[Any] = [{"start": -1}, {"reply": -1, "payload": json.dumps(loaded)}]
    count = draw(st.integers(0, 4) | st.integers(0, len(CALLS)))
    for index in range(count):
        records.append({"start": index})
        records.append({"reply": index, "payload": draw(REPLIES)})
    if draw(st.booleans()):
        records.append({"start": count})
        records.append({"died": count, "returncode": draw(st.integers(-20, 3)), "overflow": draw(st.booleans())})  # fmt: skip
    records.append({"end": True})
    shaped = st.one_of(
        st.builds(lambda i: {"start": i}, st.integers(-3, 99)),
        st.builds(lambda i, text: {"reply": i, "payload": text}, st.integers(-3, 99), REPLIES),
        st.builds(
            lambda i, code: {"died": i, "returncode": code, "overflow": False},
            st.integers(-3, 99),
            st.integers(-20, 3) | st.none(),
        ),
    )
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        records.insert(draw(st.integers(0, len(records))), draw(JSON | shaped))
    data = "".join(json.dumps(record) + "\n" for record in records).encode()
    if draw(st.sampled_from([False, False, True])):
        data = data[: draw(st.integers(0, len(data)))]
    return data


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, bool | int | float | str | Opaque):
        return True
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


def _read(stdout: bytes, overflow: bool = False) -> SandboxResult:
    return Run(CALLS, DEFAULT_LIMITS, 0.0, 0, "").read(stdout, overflow=overflow)


def _check(result: SandboxResult) -> None:
    assert all(_plain(o.value) and _plain(list(o.args)) for o in result.outcomes)
    errors = validation._errors_by_level(CASES, result, [], DEFAULT_LIMITS)
    if result.stopped == UNREADABLE:
        assert result.outcomes == ()
        assert errors[2] == [UNREADABLE]


@settings(max_examples=150, deadline=None)
@given(streams())
def test_a_generated_stream_is_a_report_of_plain_values_or_one_sentence(stdout: bytes) -> None:
    _check(_read(stdout))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400), st.booleans())
def test_any_bytes_are_a_report_or_one_sentence(stdout: bytes, cut: bool) -> None:
    _check(_read(stdout, overflow=cut))


def _stream(payload: str) -> bytes:
    records = [{"start": -1}, {"reply": -1, "payload": json.dumps({"loaded": True})}]
    records += [{"start": 0}, {"reply": 0, "payload": payload}, {"end": True}]
    return "".join(json.dumps(record) + "\n" for record in records).encode()


def _reply(value: Any) -> str:
    return json.dumps({"ok": True, "value": value, "args": [], "kwargs": {}})


def test_the_reported_hostile_records_are_unreadable_reports() -> None:
    not_pairs = _reply({"type": "dict", "items": [[{"type": "int", "value": 1}]]})
    list_key = _reply({"type": "dict", "items": [[{"type": "list", "items": []}, {"type": "None", "value": None}]]})  # fmt: skip
    deep_value = _reply(json.loads('{"type": "list", "items": [' * 100 + "]}" * 100))
    for stdout in (
        _stream(not_pairs),
        _stream(list_key),
        _stream(deep_value),
        _stream("[" * 200_000),
        b"[" * 200_000 + b"\n",
        _stream(_reply({"type": "int", "value": True})),
        b'{"start": 99}\n{"end": true}\n',
        b'{"start": -7}\n{"died": -7, "returncode": 0, "overflow": false}\n{"end": true}\n',
    ):
        result = _read(stdout)
        assert result.stopped == UNREADABLE
        _check(result)


def test_a_line_cut_at_the_output_limit_is_not_read_as_a_record() -> None:
    whole = _stream(_reply({"type": "str", "value": "x" * 100}))
    result = _read(whole[: len(whole) - 30], overflow=True)
    assert result.stopped.endswith("wrote more than 1 MiB of output; the sandbox stopped it")
    _check(result)


HOSTILE = atom_file("hostile")


@st.composite
def raw_replies(draw: st.DrawFn) -> bytes:
    """What a child may write on its reply pipe: a length (true, short, long or huge) and JSON
    or bytes."""
    body = draw(REPLIES.map(str.encode) | st.binary(max_size=40))
    size = draw(st.sampled_from([len(body), max(len(body) - 1, 0), len(body) + 5, 2**40]))
    return draw(st.sampled_from([size.to_bytes(8, "big") + body, body]))


@settings(max_examples=25, deadline=None)
@given(raw_replies())
async def test_whatever_a_child_writes_on_its_pipe_is_a_report_or_one_sentence(data: bytes) -> None:
    calls = [{"atom": "raw_reply", "args": [data.decode("latin-1")], "kwargs": {}}]
    result = await run_atoms(HOSTILE, calls)
    assert all(_plain(o.value) for o in result.outcomes)
    assert result.stopped == "" or "raw_reply" in result.stopped or result.stopped == UNREADABLE
