"""The offline model's draft and reflect stages: the draft follows the intent and the sample
(fields, pattern kind), and each validator error is fixed by what it names. Every artifact is
judged by the real validator, sandbox included."""

from __future__ import annotations

import pytest

from agents.offline import OfflineChatModel
from agents.profiles.atom_developer import prompts
from agents.profiles.atom_developer.generator import extract_sample, generate
from agents.profiles.atom_developer.offline_fixes import fix_draft
from agents.profiles.atom_developer.profile import PROFILE
from agents.profiles.atom_developer.request import last_block
from agents.profiles.atom_developer.validation import validate
from tests.atom_developer.graph_support import BROKEN_DRAFT, ERROR_SAMPLE

ACCESS_SAMPLE = (
    '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326 "-" "curl/8"\n'
    '10.0.0.7 - - [10/Oct/2000:13:55:40 -0700] "POST /login HTTP/1.1" 500 17 "-" "Mozilla/5.0"'
)


@pytest.mark.parametrize(
    ("intent", "sample", "pattern", "kind"),
    [
        ("extract the error code when it is 500 or 503", ERROR_SAMPLE, "500|503", "alternatives"),
        ("extract error code 500", ERROR_SAMPLE, "500", "default"),
        ("extract the error code", ERROR_SAMPLE, "regex:^\\d+$", "regex"),
        ("extract lines whose message starts with db", ERROR_SAMPLE, "db*", "wildcard"),
        ("extract the error code matching /^5\\d\\d$/", ERROR_SAMPLE, "regex:^5\\d\\d$", "regex"),
        ("extract the IP and status code from nginx access logs", ACCESS_SAMPLE, "regex:^[1-5]\\d{2}$", "regex"),
    ],
)  # fmt: skip
def test_the_draft_picks_the_pattern_kind_from_the_intent_and_passes(
    intent: str, sample: str, pattern: str, kind: str
) -> None:
    atom = generate(intent, sample)
    assert (atom.pattern, atom.kind) == (pattern, kind)
    assert f"kind: {kind}" in atom.spec
    report = validate(atom.code, atom.spec, sample)
    assert report.valid, report.errors


def test_the_fields_come_from_the_intent_or_else_the_sample() -> None:
    assert generate("extract the IP and status code from nginx access logs").fields == ("ip", "status")  # fmt: skip
    assert generate("parse these", ERROR_SAMPLE).fields == ("timestamp", "level", "error_code", "message")  # fmt: skip


def test_a_component_is_a_field_of_its_own_and_leaves_the_message() -> None:
    sample = (
        "2024-01-01 12:00:01 ERROR db: connection refused\n"
        "2024-01-01 12:00:02 INFO [web] started\n"
        "2024-01-01 12:00:03 WARN fetch http://example.test failed"
    )
    atom = generate("parse lines into timestamp, level, component and message", sample)
    assert atom.fields == ("timestamp", "level", "component", "message")
    assert [(r.get("component"), r["message"]) for r in extract_sample(atom, sample)] == [
        ("db", "connection refused"),
        ("web", "started"),
        (None, "fetch http://example.test failed"),
    ]
    assert validate(atom.code, atom.spec, sample).valid
    # Without a component asked for, the message keeps the whole rest of the line.
    plain = generate("parse lines into timestamp, level and message", sample)
    assert extract_sample(plain, sample)[0]["message"] == "db: connection refused"


SYSLOG_SAMPLE = (
    "Jan  1 12:00:01 web01 sshd[4242]: Failed password for root from 10.0.0.5 port 22\n"
    "Jan 12 08:15:00 db-2.local kernel: Out of memory: Killed process 123"
)


def test_syslog_lines_give_their_host_program_pid_and_message() -> None:
    atom = generate("extract the hostname, program, pid and message", SYSLOG_SAMPLE)
    assert atom.fields == ("host", "program", "pid", "message")
    assert extract_sample(atom, SYSLOG_SAMPLE) == [
        {"host": "web01", "program": "sshd", "pid": "4242",
         "message": "Failed password for root from 10.0.0.5 port 22"},
        {"host": "db-2.local", "program": "kernel",
         "message": "Out of memory: Killed process 123"},
    ]  # fmt: skip
    assert validate(atom.code, atom.spec, SYSLOG_SAMPLE).valid
    # Named by nothing in the intent, the fields come from what the lines carry.
    sampled = generate("parse these", SYSLOG_SAMPLE)
    assert sampled.fields[:3] == ("timestamp", "host", "program")
    assert extract_sample(sampled, SYSLOG_SAMPLE)[1]["timestamp"] == "Jan 12 08:15:00"
    # "process" as a verb names no field.
    assert generate("process each line and extract the IP", SYSLOG_SAMPLE).fields == ("ip",)


LOGFMT_SAMPLE = (
    "ts=2024-01-01T10:00:00Z level=error user_id=42 x-request-id=ab-12 latency_ms=130\n"
    "ts=2024-01-01T10:00:01Z level=info user_id=7 x-request-id=cd-34 latency_ms=12"
)
JSON_SAMPLE = (
    '{"ts": "2024-01-01T10:00:00Z", "user_id": 42, "request.id": "ab-12"}\n'
    '{"ts": "2024-01-01T10:00:01Z", "user_id": 7, "request.id": "cd-34"}'
)


@pytest.mark.parametrize(
    ("sample", "fields", "first"),
    [
        (LOGFMT_SAMPLE, ("user_id", "x_request_id", "latency_ms"),
         {"user_id": "42", "x_request_id": "ab-12", "latency_ms": "130"}),
        (JSON_SAMPLE, ("user_id", "request_id"), {"user_id": "42", "request_id": "ab-12"}),
    ],
)  # fmt: skip
def test_keys_the_sample_carries_are_fields_when_the_intent_names_them(
    sample: str, fields: tuple[str, ...], first: dict[str, str]
) -> None:
    intent = "extract the user id, request id and latency_ms"
    atom = generate(intent, sample)
    assert atom.fields == fields
    assert extract_sample(atom, sample)[0] == first
    assert validate(atom.code, atom.spec, sample).valid
    # A known field named in longer words wins over a key inside them ("error code", code=500).
    assert generate("extract the error code", ERROR_SAMPLE).fields == ("error_code",)


def test_the_offline_model_answers_the_draft_stage_with_code_and_spec() -> None:
    model = OfflineChatModel().with_rules(PROFILE.offline_rules)
    request = prompts.draft_message("extract the error code", ERROR_SAMPLE)
    reply = str(model.invoke(request).content)
    code, spec = last_block(reply, frozenset({"python"})), last_block(reply, frozenset({"yaml"}))
    assert "def extract_context" in code
    assert "pattern: 'regex:" in spec
    assert validate(code, spec, ERROR_SAMPLE).valid


def test_each_error_is_fixed_by_what_it_names_and_the_rest_is_kept() -> None:
    before = validate(BROKEN_DRAFT, None, ERROR_SAMPLE)
    assert not before.valid
    fixed = fix_draft("extract the error code", ERROR_SAMPLE, BROKEN_DRAFT, "", before.errors)
    assert "import os" not in fixed.code
    assert "subprocess" not in fixed.code
    assert "print(" not in fixed.code
    assert 'CODE = re.compile(r"code=(\\d+)")' in fixed.code  # the user's own pattern stays
    assert "def validate_logic" in fixed.code  # the spec written for it is read through it
    assert any("dropped `import os`" in change for change in fixed.changes)
    assert validate(fixed.code, fixed.spec, ERROR_SAMPLE).valid


def test_an_atom_that_breaks_its_contract_is_rewritten() -> None:
    atom = generate("extract the error code", ERROR_SAMPLE)
    swapped = atom.code.replace("if regex_mode == 'match':", "if regex_mode != 'match':")
    report = validate(swapped, atom.spec, ERROR_SAMPLE)
    assert not report.valid
    fixed = fix_draft("extract the error code", ERROR_SAMPLE, swapped, atom.spec, report.errors)
    assert "rewrote `validate_logic` to its contract" in fixed.changes
    assert validate(fixed.code, fixed.spec, ERROR_SAMPLE).valid


def test_a_sample_without_the_wanted_field_is_not_pretended_away() -> None:
    sample = "INFO all good\nINFO still fine"
    atom = generate("extract the error code", sample)
    report = validate(atom.code, atom.spec, sample)
    assert not report.valid
    fixed = fix_draft("extract the error code", sample, atom.code, atom.spec, report.errors)
    assert fixed.code == atom.code
    assert any("the sample has no line with `error_code`" in c for c in fixed.changes)
