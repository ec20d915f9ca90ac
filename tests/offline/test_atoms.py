"""The offline model writes atom code that fits the intent and passes the 10.2 checks."""

from __future__ import annotations

import ast
import json
import re

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool

from agents.offline import OfflineChatModel
from agents.offline.rules.atom_code import generate
from tests.offline.conftest import build_loop, run_turn

ACCESS_SAMPLE = (
    '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326 "-" "curl/8"\n'
    '10.0.0.7 - - [10/Oct/2000:13:55:40 -0700] "POST /login HTTP/1.1" 500 17 "-" "Mozilla/5.0"'
)
ATOM_SYSTEM = (
    "You are a Senior EDA Tool Developer. Write atoms (extract_context) per Architecture 10.2."
)


def compliance(code: str, yaml: str) -> dict:
    """The seed's hybrid validator (AST ban on I/O, runtime contract checks, twin consistency)."""
    errors = []
    for node in ast.walk(ast.parse(code)):
        called = (
            node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
        )
        if called in ["open", "read", "write", "print", "eval"]:
            errors.append(f"CRITICAL: Forbidden IO function '{called}' detected.")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            errors += [
                f"CRITICAL: Forbidden import '{n}'"
                for n in names
                if n in ("os", "sys", "subprocess")
            ]
    scope: dict = {}
    exec(code, scope)
    items = scope["extract_context"](
        ACCESS_SAMPLE + "\n2024-01-01 00:00:00 ERROR code=500 db down", "t.log"
    )
    if not isinstance(items, list):
        errors.append("Atom A Error: Must return a List.")
    for item in items:
        if not isinstance(item.get("value"), str):
            errors.append("Atom A Violation: 'value' must be str.")
        if set(item) != {"value", "source_file", "line_number", "matched_content", "parsed_fields"}:
            errors.append("Atom A Violation: item keys.")
    logic = scope["validate_logic"]
    if not logic("abc", "regex:^a", regex_mode="match")["is_match"]:
        errors.append("Atom B Error: regex_mode='match' failed to match prefix.")
    if not logic("a|b", "a|b")["is_match"]:
        errors.append("Atom B Error: Alternative logic ('|') failed.")
    if "check_existence" in scope and scope["check_existence"]([{"val": 1}])["evidence"] != [
        {"val": 1}
    ]:
        errors.append("Atom C Error: Failed to pass through 'evidence' list.")
    if "regex:" in yaml and "regex" not in code:
        errors.append("Consistency Error")
    return {"valid": not errors, "errors": errors, "items": items}


def test_the_fields_of_the_intent_become_named_groups_and_parsed_fields() -> None:
    atom = generate("extract the IP and status code from nginx access logs")
    assert atom.fields == ("ip", "status") and atom.access_log
    verdict = compliance(atom.code, atom.spec)
    assert verdict["valid"], verdict["errors"]
    assert [i["parsed_fields"] for i in verdict["items"]] == [
        {"ip": "127.0.0.1", "status": "200"},
        {"ip": "10.0.0.7", "status": "500"},
    ]
    assert [i["value"] for i in verdict["items"]] == ["200", "500"]
    assert "pattern: 'regex:^[1-5]\\d{2}$'" in atom.spec


def test_a_different_intent_gives_different_code_that_also_passes() -> None:
    atom = generate("Extract Error Code 500 from application logs and check that any exist")
    assert atom.fields == ("error_code",) and not atom.access_log
    assert "def check_existence" in atom.code
    verdict = compliance(atom.code, atom.spec)
    assert verdict["valid"], verdict["errors"]
    assert [i["value"] for i in verdict["items"]] == ["500"]
    assert "pattern: '500'" in atom.spec
    assert atom.code != generate("extract the IP and status code from nginx access logs").code


def test_the_reply_shows_code_spec_and_what_the_sample_yields(model: OfflineChatModel) -> None:
    request = f"Write a parser that extracts the IP and status code from these logs:\n```\n{ACCESS_SAMPLE}\n```"
    answer = model.invoke([HumanMessage(request)]).content
    code = re.search(r"```python\n(.*?)```", answer, re.S).group(1)
    spec = re.search(r"```yaml\n(.*?)```", answer, re.S).group(1)
    assert compliance(code, spec)["valid"]
    assert "On your sample it finds 2 item(s)" in answer
    assert "| 2 | `10.0.0.7` | `500` |" in answer


def test_a_json_request_gets_valid_json_with_the_named_keys(model: OfflineChatModel) -> None:
    reply = model.invoke(
        [
            SystemMessage(ATOM_SYSTEM),
            HumanMessage(
                'Intent: extract the timestamp and level from app logs. Reply as JSON with "generated_code" and "pseudo_contract".'
            ),
        ]
    ).content
    data = json.loads(reply)
    assert set(data) == {"generated_code", "pseudo_contract"}
    assert (
        "'timestamp'" in data["generated_code"]
        and "fields: [timestamp, level]" in data["pseudo_contract"]
    )
    assert compliance(data["generated_code"], data["pseudo_contract"])["valid"]


def test_reported_validation_errors_are_addressed(model: OfflineChatModel) -> None:
    reply = model.invoke(
        [
            SystemMessage(ATOM_SYSTEM),
            HumanMessage(
                "Fix the atom for: extract the IP from access logs.\nAtom A Violation: 'value' field is int, MUST be str."
            ),
        ]
    ).content
    assert "Addressing the reported problems" in reply
    assert "Atom A Violation: 'value' field is int, MUST be str." in reply
    assert "'ip'" in reply


async def test_with_a_validator_tool_the_draft_is_checked_before_answering() -> None:
    seen: list[str] = []

    @tool
    def validate_10_2_compliance(code_str: str, yaml_str: str) -> str:
        """Hybrid validator: AST static check plus runtime sandbox of atom code against the 10.2 contract."""
        seen.append(code_str)
        verdict = compliance(code_str, yaml_str)
        return json.dumps({"valid": verdict["valid"], "errors": verdict["errors"]})

    graph = build_loop(OfflineChatModel(), [validate_10_2_compliance], system=ATOM_SYSTEM)
    messages = await run_turn(graph, "extract the client ip and http method from nginx access logs")
    assert len(seen) == 1 and "'method'" in seen[0]
    assert "**Compliance check: passed.**" in messages[-1].content
