"""atom-developer's graph state: the intent and sample, the twin artifacts, what the validator
said of them, and how many fixes were tried."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

MAX_FIXES = 3
"""Reflect rounds before the safe stub: the draft and three fixes are validated, four in all."""


class DeveloperState(TypedDict, total=False):
    """One turn of the draft → validate → reflect loop."""

    messages: Annotated[list[AnyMessage], add_messages]
    user_intent: str
    """What the user wants extracted or checked, in their words."""
    log_snippet: str
    """Sample log lines (from the message, or a file under the project root)."""
    sample_from: str
    sample_cut: str
    """What of the sample was left out, as a sentence ("" when it is used whole)."""
    generated_code: str
    """The Python atoms being worked on (the mechanism)."""
    pseudo_contract: str
    """The YAML item spec that drives them (the policy)."""
    user_spec: str
    """The spec the user gave in this message: every draft and fix is checked against it."""
    validation_errors: list[str]
    """What the last validation found; empty when it passed."""
    iteration_count: int
    """Fixes made so far (at most :data:`MAX_FIXES`)."""
    report: dict[str, Any]
    """The last validation report (``ValidationReport.as_dict()``)."""
    report_text: str
    """The same report as Markdown lines, one per level."""
    drafted_by_user: bool
    asks_for_atom: bool
    """The message asks for atom work (see ``request_check``); otherwise it gets a guide."""
    previous_code: str
    """The branch's last draft, when this message follows up on it ("also extract the host")."""
    """The user brought the first draft (a ```python block) to be checked and fixed."""
    user_atoms: list[str]
    """The atoms the user's own code defined: every fix of it must still define them."""
    stub: bool
    """The answer is the safe stub: no draft passed within the fixes allowed."""
    fix_notes: str
    """What the model said beside its last fix (what it changed, or why nothing could help)."""
    rejected_code: str
    """The last draft that failed, shown beside the stub."""
    trace: list[dict[str, Any]]
