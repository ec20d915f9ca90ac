"""paper-pilot's four retrieval strategies, one per kind of question the router reads:
``direct`` (one search), ``rewoo`` (every entity × dimension searched at once), ``react``
(think, search, observe, a few times) and plan-and-execute (plan, run a step, replan).
Each fills the state's ``chunks`` for the synthesis that follows."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from langgraph.graph import StateGraph
from langgraph.runtime import Runtime

from agents.graph import emit_status
from agents.profile import TurnContext
from agents.profiles.paper_pilot import prompts
from agents.profiles.paper_pilot.knowledge.client import KnowledgeError
from agents.profiles.paper_pilot.limits import limits_of
from agents.profiles.paper_pilot.retrieval import (
    TOP_K,
    knowledge_client,
    merge_chunks,
    retrieval_guard,
    retrieve,
)
from agents.profiles.paper_pilot.scope import documents_to_summarise, summary_chunk
from agents.profiles.paper_pilot.stage_tools import (
    ask_structured,
    question_text,
    trace_entry,
    with_trace,
)
from agents.profiles.paper_pilot.state import (
    PaperPilotState,
    ReactStep,
    ReplanDecision,
    ResearchPlan,
)
from agents.profiles.paper_pilot.trace_view import brief_chunks
from agents.structured import NoAnswer


@retrieval_guard
async def direct(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    query = state.get("query") or state.get("question", "")
    chunks = await retrieve(runtime.context, query, "direct", state.get("search_in"))
    return {
        "chunks": chunks,
        "trace": with_trace(
            state,
            trace_entry(
                "direct", started, runtime.context, queries=[query], found=brief_chunks(chunks)
            ),
        ),
    }


@retrieval_guard
async def rewoo(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Plan every query first (entities × dimensions), retrieve them at once, synthesize once."""
    started = time.perf_counter()
    entities = state.get("entities") or [state.get("query") or state.get("question", "")]
    dimensions = state.get("dimensions") or [""]
    most = limits_of(runtime.context.settings).max_queries
    queries = [f"{e} {d}".strip() for e in entities for d in dimensions][:most]
    emit_status("rewoo", f"planned {len(queries)} retrievals: {'; '.join(queries)}", "done")
    search_in = state.get("search_in")
    found = await asyncio.gather(
        *(retrieve(runtime.context, q, "rewoo", search_in) for q in queries)
    )
    chunks = merge_chunks(*found)
    return {
        "chunks": chunks,
        "trace": with_trace(
            state,
            trace_entry(
                "rewoo", started, runtime.context, queries=queries, found=brief_chunks(chunks)
            ),
        ),
    }


@retrieval_guard
async def react(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Act (retrieve) → think → act again, at most ``paper_pilot.react_steps`` searches.

    The first search is the question as the router rewrote it (any model's first thought;
    no round trip); each later one is the model's choice from what was found. The loop ends
    when the model finishes, repeats a search, or a search finds nothing new (the findings
    have stopped growing, so another thought would see what this one saw)."""
    started = time.perf_counter()
    search_in = state.get("search_in")
    first = state.get("query") or state.get("question", "")
    queries = [first]
    emit_status("react", f"step 1: searching {first}")
    chunks = merge_chunks(await retrieve(runtime.context, first, "react", search_in))
    for step in range(2, limits_of(runtime.context.settings).react_steps + 1):
        text = question_text(state) + "\n" + (
            "Findings so far:\n" + "\n".join(f"- {c['title']} — {c['section']}" for c in chunks)
            if chunks else "Findings so far: none"
        ) + "\nSearches done: " + "; ".join(queries)  # fmt: skip
        decision = await ask_structured(runtime.context, ReactStep, prompts.REACT, text, "react")
        if isinstance(decision, NoAnswer):
            emit_status("react", f"step {step}: no next step read ({decision.reason})", "error")
            break
        if decision.action == "finish" or not decision.query.strip():
            emit_status("react", f"step {step}: enough found, writing the answer", "done")
            break
        if decision.query in queries:
            break
        emit_status("react", f"step {step}: {decision.thought or 'searching'}")
        queries.append(decision.query)
        found = await retrieve(runtime.context, decision.query, "react", search_in)
        grown = merge_chunks(chunks, found)
        if len(grown) == len(chunks):
            emit_status("react", f"step {step}: nothing new found, writing the answer", "done")
            break
        chunks = grown
    if state.get("intent") == "exploratory":
        chunks = merge_chunks(await _summaries(runtime.context, chunks), chunks)
    return {
        "chunks": chunks,
        "trace": with_trace(
            state,
            trace_entry(
                "react", started, runtime.context, queries=queries, found=brief_chunks(chunks)
            ),
        ),
    }


async def _summaries(context: TurnContext, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The summaries of the documents found, for an overview of the topic (none when the
    server cannot give them: the chunks found still answer)."""
    wanted = documents_to_summarise(chunks)
    if not wanted:
        return []
    emit_status("react", f"summaries of {', '.join(wanted)}")
    client = knowledge_client(context)
    try:
        found = [await client.document_summary(doc_id) for doc_id in wanted]
    except KnowledgeError as exc:
        emit_status("react", f"no document summaries: {exc}", "error")
        return []
    summaries = [summary_chunk(summary) for summary in found if summary is not None]
    emit_status("react", f"summaries of {len(summaries)} documents", "done")
    return summaries


async def plan(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """The retrieval steps: the router's, when it gave them with the intent (no round trip),
    else one structured call of their own."""
    started = time.perf_counter()
    routed = [s for s in state.get("plan") or [] if s.strip()]
    if routed:
        emit_status("plan", " → ".join(routed), "done")
        return {
            "plan": routed,
            "step": 0,
            "chunks": [],
            "trace": with_trace(state, trace_entry("plan", started, steps=routed, from_route=True)),
        }
    made = await ask_structured(runtime.context, ResearchPlan, prompts.PLANNER, question_text(state), "plan")  # fmt: skip
    if isinstance(made, NoAnswer):
        emit_status("plan", f"no plan read ({made.reason}): one step, the question", "error")
    steps = [s for s in ([] if isinstance(made, NoAnswer) else made.steps) if s.strip()][:limits_of(runtime.context.settings).plan_steps]  # fmt: skip
    steps = steps or [state.get("query") or state.get("question", "")]
    emit_status("plan", " → ".join(steps), "done")
    return {
        "plan": steps,
        "step": 0,
        "chunks": [],
        "trace": with_trace(state, trace_entry("plan", started, runtime.context, steps=steps)),
    }


@retrieval_guard
async def execute_step(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    steps, n = state.get("plan") or [], state.get("step", 0)
    query = steps[n]
    found = await retrieve(runtime.context, query, "execute_step", state.get("search_in"))
    return {
        "chunks": merge_chunks(state.get("chunks") or [], found),
        "step": n + 1,
        "trace": with_trace(
            state,
            trace_entry(
                "execute_step", started, runtime.context, queries=[query], found=brief_chunks(found)
            ),
        ),
    }


async def replan(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    steps, done = list(state.get("plan") or []), state.get("step", 0)
    if state.get("error") or done >= len(steps):
        return {"plan": steps[:done]}
    started = time.perf_counter()
    plan, outcome = await _replanned(state, runtime.context, steps, done)
    entry = trace_entry("replan", started, runtime.context, outcome=outcome, steps=plan)
    return {"plan": plan, "trace": with_trace(state, entry)}


async def _replanned(
    state: PaperPilotState, context: TurnContext, steps: list[str], done: int
) -> tuple[list[str], str]:
    """The plan after ``done`` steps, as the model decided it, and what it decided."""
    chunks = state.get("chunks") or []
    text = "\n".join([
        question_text(state),
        "Plan:", *(f"{i}. {s}" for i, s in enumerate(steps, 1)),
        f"Steps done: {done}",
        "Found:", *(f"- {c['title']} — {c['section']}: {c['text'][:200]}" for c in chunks[-TOP_K:]),
    ])  # fmt: skip
    decision = await ask_structured(context, ReplanDecision, prompts.REPLANNER, text, "replan")
    if isinstance(decision, NoAnswer):
        emit_status("replan", f"no decision read ({decision.reason}): the next step as planned", "error")  # fmt: skip
        return steps, "no decision"
    action = decision.action
    if action == "synthesize":
        emit_status("replan", "enough found: writing the answer", "done")
        return steps[:done], action
    if action == "revise" and decision.revised_step.strip():
        steps[done] = decision.revised_step.strip()
        emit_status("replan", f"next step revised: {steps[done]}", "done")
    return steps, action


def after_replan(state: PaperPilotState) -> Literal["execute_step", "synthesize"]:
    return "execute_step" if state.get("step", 0) < len(state.get("plan") or []) else "synthesize"


def add_plan_and_execute(graph: StateGraph[PaperPilotState, TurnContext, Any, Any]) -> str:
    """plan → execute step → replan (next / revise / synthesize), at most three steps; its
    nodes sit in the main graph, so their stage lines reach the tool pane like the others'.
    Returns the entry node."""
    graph.add_node("plan", plan)
    graph.add_node("execute_step", execute_step)
    graph.add_node("replan", replan)
    graph.add_edge("plan", "execute_step")
    graph.add_edge("execute_step", "replan")
    graph.add_conditional_edges("replan", after_replan, ["execute_step", "synthesize"])
    return "plan"
