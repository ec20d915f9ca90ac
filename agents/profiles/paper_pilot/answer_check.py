"""How a written answer is settled: the citation audit this code runs after the model's critic,
the one revision an audit failure earns, and the plain "not in your notes" answer.

The badge comes from both checks: an answer is ``checked`` only when the critic passed it and
the audit (:mod:`.citation_audit`) found every stating sentence supported by the source it
cites. An audit failure sends the draft back once with its failures named; after that the
answer is ``partly supported`` (its failing sentences marked) when some sentence is supported,
and ``not in your notes`` when none is. Retrieval that found nothing about the question skips
the writing: nothing is answered from the model's own knowledge.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langgraph.runtime import Runtime

from agents.graph import emit_status
from agents.graph.draft import emit_draft
from agents.profile import TurnContext
from agents.profiles.paper_pilot.citation_audit import (
    Audit,
    audit_answer,
    mentions,
    named_things,
    stems,
)
from agents.profiles.paper_pilot.source_list import source_location
from agents.profiles.paper_pilot.stage_tools import trace_entry, with_trace
from agents.profiles.paper_pilot.state import PaperPilotState

Outcome = Literal["checked", "revise", "partly", "not_in_notes", "retry", "unchecked"]
CLOSEST_NOTES = 3
PARTLY = "partly supported"
NOT_IN_NOTES = "not in your notes"


def relevant_chunks(
    question: str, entities: Sequence[str], chunks: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """The chunks about the question: naming one of the things it names, or sharing half its
    key terms (two at most: a question's topic and one more)."""
    wanted = stems(question)
    enough = min(2, (len(wanted) + 1) // 2)
    about = []
    for chunk in chunks:
        text = " ".join(str(chunk.get(k) or "") for k in ("title", "section", "text"))
        named = any(mentions(text, name) for name in entities)
        if named or (enough and len(wanted & stems(text)) >= enough):
            about.append(chunk)
    return about


def named_in_question(state: PaperPilotState) -> list[str]:
    """What the question names: the router's entities, and the names in the user's own words
    (``LoRA``, ``DPO``), so a router that lists none does not spare an answer the check that
    it covers each of them."""
    said = named_things(str(state.get("question") or ""))
    return list(dict.fromkeys([*(state.get("entities") or []), *said]))


def nothing_relevant(state: PaperPilotState) -> bool:
    question = " ".join(filter(None, [state.get("query"), state.get("question")]))
    return not relevant_chunks(question, named_in_question(state), state.get("chunks") or [])


def prior_texts(state: PaperPilotState) -> list[str]:
    return [str(fact.get("text", "")) for fact in state.get("prior") or []]


def audit_of(state: PaperPilotState) -> Audit:
    """The audit of the state's draft over its chunks (a pure function of them)."""
    return audit_answer(
        state.get("draft", ""),
        state.get("chunks") or [],
        named_in_question(state),
        prior_texts(state),
    )


def outcome_of(state: PaperPilotState, audit: Audit) -> Outcome:
    if state.get("not_found"):
        return "not_in_notes"
    passed = bool((state.get("verdict") or {}).get("passed"))
    if state.get("unchecked"):
        return "unchecked" if audit.supported else "not_in_notes"
    if not passed:
        return "retry"
    if audit.passed:
        return "checked"
    if not state.get("revised"):
        return "revise"
    return "partly" if audit.supported else "not_in_notes"


async def audit(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Check the draft's citations here, then settle the draft's mark with the critic's."""
    started = time.perf_counter()
    if state.get("error"):
        return {"outcome": "unchecked"}
    result = audit_of(state)
    outcome = outcome_of(state, result)
    failures = result.failures()
    if not state.get("not_found"):
        said = f"{len(result.supported)} supported, {len(result.failing)} not" + (
            f"; uncovered: {', '.join(result.uncovered)}" if result.uncovered else ""
        )
        emit_status("audit", f"citations: {said}", "done" if result.passed else "error")
    if outcome == "checked":
        emit_draft("checked")
    elif outcome == "revise":
        emit_draft("rejected", "; ".join(failures))
    elif outcome == "partly":
        emit_draft("unchecked", f"{PARTLY}: {len(result.failing) + len(result.uncovered)} failure(s) marked")  # fmt: skip
    elif outcome == "not_in_notes":
        emit_draft("unchecked", NOT_IN_NOTES)
    elif outcome == "retry":
        emit_draft("rejected", (state.get("verdict") or {}).get("feedback", ""))
    entry = trace_entry("audit", started, outcome=outcome, **result.as_dict())
    return {"outcome": outcome, "audit_failures": failures, "trace": with_trace(state, entry)}


def after_audit(state: PaperPilotState) -> str:
    """Where the settled draft goes: remembered (checked, or partly: its supported sentences),
    written again (an audit failure, once), retried (a critic's failure), the web (retries
    spent, or nothing in the notes, when the user turned it on) or shown as it stands."""
    outcome = state.get("outcome")
    web = bool(state.get("web_enabled")) and not state.get("forced")
    if outcome in ("checked", "partly"):
        return "save_memory"
    if outcome == "revise":
        return "revise"
    if outcome == "retry":
        return "retry_refine" if state.get("retries", 0) < state.get("max_retries", 0) else "web_fallback"  # fmt: skip
    if outcome == "not_in_notes" and state.get("not_found") and web:
        return "web_fallback"
    return "format_output"


async def revise(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Send the draft back to the writer once, with the audit's failures named."""
    started = time.perf_counter()
    failures = list(state.get("audit_failures") or [])
    emit_status("revise", f"sending the answer back: {len(failures)} citation failure(s)", "done")  # fmt: skip
    entry = trace_entry("revise", started, failures=failures, rejected_draft=state.get("draft", ""))  # fmt: skip
    return {"revised": True, "trace": with_trace(state, entry)}


def revision_lines(state: PaperPilotState) -> list[str]:
    """What the writer reads when its draft comes back: the draft and its failures."""
    failures = list(state.get("audit_failures") or [])
    if not state.get("revised") or not failures:
        return []
    return [
        "",
        "Your previous draft failed the citation check. Cite every claim with the source "
        "that states it, cover every thing the question names, and leave out what no source "
        "says:",
        *(f"- {line}" for line in failures),
        "Previous draft:",
        state.get("draft", ""),
    ]


def not_in_notes_text(state: PaperPilotState, web_enabled: bool) -> str:
    """The plain answer when the notes do not answer the question: what was found closest,
    and how to add notes."""
    chunks = list(state.get("chunks") or [])
    why = (
        "the answer written from what was found had no sentence its sources support"
        if state.get("draft") and not state.get("not_found")
        else "no note found is about it"
    )
    lines = [
        f"**Not in your notes.** Your notes do not answer this question ({why}), so it is not "
        "answered from the model's own knowledge."
    ]
    if chunks:
        lines += ["", "Closest notes:"]
        for chunk in chunks[:CLOSEST_NOTES]:
            section = f" — {chunk['section']}" if chunk.get("section") else ""
            lines.append(f"- {chunk.get('title') or chunk.get('doc_id')}{section} (`{source_location(chunk)}`)")  # fmt: skip
    hint = "Add notes with `weaver-tui kb add FOLDER`"
    if not web_enabled:
        hint += ", or turn on `web_search` in config.yaml to search the web"
    lines += ["", hint + ", then ask again."]
    return "\n".join(lines)
