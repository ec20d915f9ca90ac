"""paper-pilot's graph: route the question, retrieve by the strategy its intent calls for, write
a cited answer, let a critic check it, retry or settle, remember, format.

    load_memory → scope → route (intent, slots, collections: one call)
      → direct | plan_and_execute | rewoo | react → synthesize (skipped: nothing relevant found)
      → critic (the model's verdict) → audit (the citations, checked here)
               → both pass: save_memory → format_output
               → the audit fails: revise (once, its failures named) → synthesize
               → then: partly supported (save_memory: supported sentences) | not in your notes
               → the critic fails: retry_refine → route (at most ``max_retries``)
               → retries exhausted: web_fallback (when configured) | force_pass → format_output

Every stage reports a line to the tool pane (``emit_status``); the model calls of the stages
are internal (``nostream``) except the synthesis: it streams into the chat as a draft
(:mod:`agents.graph.draft`) that the audit then marks checked, rejected (the next draft
replaces it) or unchecked (:mod:`.answer_check`); ``format_output`` hands back the settled answer with its citations
and Sources, which replaces the draft. ``scope`` asks the knowledge server for its collections
(once a turn; a retry reuses them), the router names those the question asks for and the search
keeps to them; an exploratory question also reads the summaries of the documents found. The
reply record keeps the turn's trace (intent, strategy, steps, queries, verdict, each rejected
draft, durations) and its sources.

This module is the wiring and the stages around retrieval; the four strategies are in
:mod:`agents.profiles.paper_pilot.strategies`, the knowledge session and its searches in
:mod:`agents.profiles.paper_pilot.retrieval`.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agents.graph import emit_status
from agents.graph.draft import DRAFT_CALL, emit_draft
from agents.profile import Profile, TurnContext
from agents.profiles.paper_pilot import prompts
from agents.profiles.paper_pilot.answer_check import (
    CLOSEST_NOTES,
    NOT_IN_NOTES,
    PARTLY,
    after_audit,
    audit,
    audit_of,
    not_in_notes_text,
    nothing_relevant,
    prior_texts,
    revise,
    revision_lines,
)
from agents.profiles.paper_pilot.citation_audit import (
    Audit,
    marked_answer,
    normalize_citations,
    repeats_prior,
)
from agents.profiles.paper_pilot.knowledge.client import KnowledgeError
from agents.profiles.paper_pilot.limits import limits_of
from agents.profiles.paper_pilot.memory import open_memory
from agents.profiles.paper_pilot.retrieval import (
    knowledge_client,
    merge_chunks,
    open_knowledge_soon,
)
from agents.profiles.paper_pilot.role_models import role_calls
from agents.profiles.paper_pilot.scope import (
    chosen_collections,
    collections_line,
    named_collections,
)
from agents.profiles.paper_pilot.source_list import same_passage, source_location
from agents.profiles.paper_pilot.stage_tools import (
    ask_structured,
    message_text,
    question_text,
    stage_system,
    trace_entry,
    with_trace,
)
from agents.profiles.paper_pilot.state import (
    STRATEGY_OF,
    CriticVerdict,
    PaperPilotState,
    Refinement,
    RouteDecision,
)
from agents.profiles.paper_pilot.strategies import add_plan_and_execute, direct, react, rewoo
from agents.profiles.paper_pilot.trace_view import log_trace
from agents.profiles.paper_pilot.web_search import WebSearchError, web_search
from agents.reply_outcome import written_text
from agents.structured import NoAnswer

logger = logging.getLogger(__name__)
HISTORY_LINES = 6
UNCONFIRMED = "the critic could not confirm every claim"
ALREADY_LEARNED = "You have read this before, in an earlier answer."
FROM_THE_WEB = "from the web"
NO_WEB_KEY = (
    "The web search is on but has no key, so no search was sent: set web_search.api_key in "
    "config.yaml."
)
_CITATION = re.compile(r"\[(\d+)\]")


# -- understanding the question -----------------------------------------------------------------


async def load_memory(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    open_knowledge_soon(runtime.context)
    messages = list(state.get("messages") or [])
    question = message_text(messages[-1]) if messages else ""
    history = [
        f"{'user' if isinstance(m, HumanMessage) else 'assistant'}: {' '.join(message_text(m).split())[:300]}"
        for m in messages[:-1]
        if isinstance(m, HumanMessage | AIMessage) and message_text(m).strip()
    ][-HISTORY_LINES:]
    limits = limits_of(runtime.context.settings)
    prior = _recall(runtime.context, question, limits.memory_top_k)
    if prior:
        emit_status("load_memory", f"recalled {len(prior)} fact(s) you learned before", "done")
    return {
        "question": question,
        "history": history,
        "query": question,
        "prior": prior,
        "retries": 0,
        "forced": False,
        "unchecked": False,
        "chunks": [],
        "error": "",
        "collections": None,
        "search_in": [],
        "not_found": False,
        "revised": False,
        "outcome": "",
        "audit_failures": [],
        "max_retries": limits.max_retries,
        "web_enabled": bool((runtime.context.settings.get("web_search") or {}).get("enabled")),
        "trace": [trace_entry("load_memory", started, runtime.context, recalled=len(prior))],
    }


def _recall(context: TurnContext, text: str, top_k: int) -> list[dict[str, Any]]:
    """The ``top_k`` remembered facts most about ``text``."""
    if context.data_dir is None or top_k <= 0 or not text.strip():
        return []
    with open_memory(context.data_dir) as memory:
        return [{"id": f.id, "text": f.text} for f in memory.recall(text, limit=top_k)]


def _follow_up_recall(state: PaperPilotState, context: TurnContext, query: str) -> list[dict[str, Any]]:  # fmt: skip
    """The facts recalled for the question, and for a follow-up more of them, recalled with
    the question rewritten to stand alone (its own words barely name the topic)."""
    prior = list(state.get("prior") or [])
    more = _recall(context, query, limits_of(context.settings).follow_up_top_k)
    known = {fact["id"] for fact in prior}
    return prior + [fact for fact in more if fact["id"] not in known]


async def scope(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Ask the knowledge server for its collections, for the router to choose from: once a
    turn, since a retry goes back to ``route``, which reuses the list in the state. This waits
    for the knowledge session that ``load_memory`` started."""
    started = time.perf_counter()
    try:
        known = [c["name"] for c in await knowledge_client(runtime.context).collections()]
    except KnowledgeError as exc:
        emit_status("scope", f"{exc} Searching every collection.", "error")
        known = []
    else:
        emit_status("scope", f"collections: {', '.join(known) or 'none listed'}", "done")
    return {
        "collections": known,
        "trace": with_trace(
            state, trace_entry("scope", started, runtime.context, collections=known)
        ),
    }


async def route(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """The intent (which picks the strategy) and the slots (what the question names, the
    question standing on its own, the listed collections it asks for) in one structured call:
    one round trip before retrieval."""
    started = time.perf_counter()
    emit_status("route", "reading the question")
    known = state.get("collections") or []
    text = "\n".join(filter(None, [question_text(state), collections_line(known)]))
    decision = await ask_structured(runtime.context, RouteDecision, prompts.ROUTER, text, "route")
    query = state.get("query", "")
    if isinstance(decision, NoAnswer):
        emit_status("route", f"no intent read ({decision.reason}): searching the question as asked", "error")  # fmt: skip
        return {
            "intent": "",
            "confidence": None,
            "strategy": "direct",
            "query": query,
            "entities": [],
            "dimensions": [],
            "plan": [],
            "search_in": named_collections(state.get("question", ""), known),
            "trace": with_trace(state, trace_entry("route", started, runtime.context, intent=None, strategy="direct",
                             query=query, no_answer=decision.reason)),
        }  # fmt: skip
    strategy = STRATEGY_OF[decision.intent]
    query = decision.reformulated_query.strip() or query
    prior = state.get("prior") or []
    if decision.intent == "follow_up":
        prior = _follow_up_recall(state, runtime.context, query)
        if len(prior) > len(state.get("prior") or []):
            emit_status("load_memory", f"recalled {len(prior)} fact(s) for the follow-up", "done")  # fmt: skip
    entities, dimensions = list(decision.entities), list(decision.dimensions)
    named = set(named_collections(state.get("question", ""), known))
    search_in = [n for n in known if n in named or n in chosen_collections(decision.collections, known)]  # fmt: skip
    # a multi-hop question's steps, when the router gave them, spare the planner's round trip
    steps = [step.strip() for step in decision.steps if step.strip()] if decision.intent == "multi_hop" else []  # fmt: skip
    steps = steps[: limits_of(runtime.context.settings).plan_steps]
    emit_status("route", f"intent {decision.intent} ({decision.confidence:.2f}) → {strategy}", "done")  # fmt: skip
    emit_status("slot_fill", f"query: {query}" + (f" · entities: {', '.join(entities)}" if entities else "")
                + (f" · in {', '.join(search_in)}" if search_in else ""), "done")  # fmt: skip
    return {
        "intent": decision.intent,
        "confidence": decision.confidence,
        "strategy": strategy,
        "query": query,
        "entities": entities,
        "dimensions": dimensions,
        "plan": steps,
        "search_in": search_in,
        "prior": prior,
        "trace": with_trace(state, trace_entry("route", started, runtime.context, intent=decision.intent, strategy=strategy,
                         confidence=decision.confidence, query=query, entities=entities,
                         dimensions=dimensions, search_in=search_in, steps=steps)),
    }  # fmt: skip


def choose_strategy(state: PaperPilotState) -> str:
    return state.get("strategy") or "direct"


# -- answer, critic, retry ----------------------------------------------------------------------


def _sources_text(chunks: list[dict[str, Any]]) -> str:
    if not chunks:
        return "Sources: (none found)"
    lines = ["Sources:"]
    for n, chunk in enumerate(chunks, 1):
        where = f"{chunk['doc_id']}#{chunk['section']}" if chunk["section"] else chunk["doc_id"]
        body = " ".join(str(chunk["text"]).split())  # one line per source
        lines.append(f"[{n}] {chunk['title']} ({where}): {body}")
    return "\n".join(lines)


def _synthesis_input(state: PaperPilotState) -> str:
    """The question as retrieved, the user's own words when they differ, the recent turns for a
    question that leans on them, the numbered sources and what the user learned before."""
    question = state.get("question", "")
    query = state.get("query") or question
    lines = [f"Question: {query}"]
    if question and question != query:
        lines.append(f"Original question: {question}")
    history = state.get("history") or []
    if history and state.get("intent") in ("follow_up", ""):
        lines += ["Earlier in this conversation:", *(f"- {line}" for line in history)]
    lines += ["", _sources_text(state.get("chunks") or [])]
    prior = state.get("prior") or []
    if prior:
        lines += ["", "Prior knowledge:", *(f"- {fact['text']}" for fact in prior)]
    return "\n".join(lines + revision_lines(state))


async def synthesize(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    if state.get("error"):
        return {
            "draft": state["error"],
            "trace": with_trace(
                state, trace_entry("synthesize", started, runtime.context, skipped=True)
            ),
        }
    if nothing_relevant(state):
        emit_status("synthesize", "nothing in your notes is about this question: not answered", "done")  # fmt: skip
        return {"draft": "", "not_found": True,
                "trace": with_trace(state, trace_entry("synthesize", started, runtime.context, not_found=True))}  # fmt: skip
    emit_status("synthesize", f"writing from {len(state.get('chunks') or [])} chunks")
    emit_draft("draft")  # streams into the chat, marked as a draft until the critic settles it
    system = stage_system(runtime.context, prompts.SYNTHESIZE)
    role_calls(runtime.context).note("synthesize", runtime.context.model)
    answer = await runtime.context.model.ainvoke(
        [SystemMessage(system), HumanMessage(_synthesis_input(state))], config=DRAFT_CALL
    )
    # refused, filtered, cut, empty or only calls: the turn ends marked
    draft = normalize_citations(written_text(answer, "answer"))
    emit_status("synthesize", f"draft of {len(draft.split())} words", "done")
    return {"draft": draft, "not_found": False,
            "trace": with_trace(state, trace_entry("synthesize", started, runtime.context))}  # fmt: skip


async def critic(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    if state.get("error"):
        return {"verdict": None, "unchecked": True}
    if state.get("not_found"):
        return {"verdict": None}
    text = _synthesis_input(state) + "\n\nDraft answer:\n" + state.get("draft", "")
    verdict = await ask_structured(runtime.context, CriticVerdict, prompts.CRITIC, text, "critic")
    if isinstance(verdict, NoAnswer):
        emit_status("critic", f"no verdict ({verdict.reason}): the answer is shown unchecked and not remembered", "error")  # fmt: skip
        emit_draft("unchecked", verdict.reason if verdict.outcome else "critic gave no verdict")
        return {"verdict": None, "unchecked": True,
                "trace": with_trace(state, trace_entry("critic", started, runtime.context, verdict=None, no_answer=verdict.reason))}  # fmt: skip
    word = "passed" if verdict.passed else "needs another pass"
    emit_status("critic", f"{word} (score {verdict.score:.2f})" + (f": {verdict.feedback}" if verdict.feedback and not verdict.passed else ""),
                "done" if verdict.passed else "error")  # fmt: skip
    rejected = {} if verdict.passed else {"rejected_draft": state.get("draft", "")}
    return {"verdict": verdict.model_dump(), "unchecked": False, "trace": with_trace(state, trace_entry("critic", started, runtime.context, **verdict.model_dump(), **rejected))}  # fmt: skip


async def retry_refine(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    feedback = (state.get("verdict") or {}).get("feedback", "")
    text = question_text(state) + f"\nCritic's feedback: {feedback}"
    failures = state.get("audit_failures") or []
    if failures:
        text += "\nCitation check:\n" + "\n".join(f"- {line}" for line in failures)
    refined = await ask_structured(runtime.context, Refinement, prompts.REFINE, text, "retry_refine")  # fmt: skip
    query = ("" if isinstance(refined, NoAnswer) else refined.query.strip()) or state.get("query", "")  # fmt: skip
    retries = state.get("retries", 0) + 1
    emit_status("retry", f"retry {retries} of {state.get('max_retries', 0)}: {query}", "done")
    return {"query": query, "retries": retries, "chunks": [],
            "trace": with_trace(state, trace_entry("retry_refine", started, runtime.context, query=query, retry=retries))}  # fmt: skip


async def web_fallback(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Retries are spent, or the notes hold nothing on the question: search the web when the
    user turned it on and gave it a key (else no search is sent), and settle (forced)."""
    started = time.perf_counter()
    config = runtime.context.settings.get("web_search") or {}
    nothing = bool(state.get("not_found"))
    if not config.get("enabled"):
        emit_status("critic", "retries spent: answering with what was found (not remembered)", "done")  # fmt: skip
        emit_draft("unchecked", UNCONFIRMED)
        return {
            "forced": True,
            "trace": with_trace(state, trace_entry("force_pass", started, runtime.context)),
        }
    if not config.get("api_key"):
        note = NO_WEB_KEY
        emit_status("web_fallback", note, "error")
        if not nothing:
            emit_draft("unchecked", UNCONFIRMED)
        return {"forced": True, "web_note": note,
                "trace": with_trace(state, trace_entry("web_fallback", started, runtime.context, error=note))}  # fmt: skip
    query = state.get("query") or state.get("question", "")
    emit_status("web_fallback", f"searching the web: {query}")
    try:
        found = await web_search(config, query)
    except WebSearchError as exc:
        emit_status("web_fallback", str(exc), "error")
        if not nothing:
            emit_draft("unchecked", UNCONFIRMED)
        return {
            "forced": True,
            "web_note": str(exc),
            "trace": with_trace(
                state, trace_entry("web_fallback", started, runtime.context, error=str(exc))
            ),
        }
    emit_status("web_fallback", f"{len(found)} web results", "done")
    merged = {**state, "chunks": merge_chunks(state.get("chunks") or [], found), "revised": False}
    answer = await synthesize(merged, runtime)  # type: ignore[arg-type]
    emit_draft("unchecked", UNCONFIRMED)
    return {"chunks": merged["chunks"], "draft": answer["draft"], "forced": True,
            "not_found": bool(answer.get("not_found")), "web_used": True,
            "trace": with_trace(state, trace_entry("web_fallback", started, runtime.context, queries=[query], found=len(found)))}  # fmt: skip


async def save_memory(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Keep the answer's sentences the audit found supported as facts (never after a forced
    pass, never a sentence the audit did not support)."""
    started = time.perf_counter()
    context = runtime.context
    facts = [fact_text(s.text) for s in audit_of(state).supported][:2]
    saved = 0
    if facts and context.data_dir is not None:
        with open_memory(context.data_dir) as memory:
            for fact in facts:
                saved += (
                    memory.save(fact, context.conversation_id, context.user_message_id) is not None
                )
    if saved:
        emit_status("save_memory", f"remembered {saved} fact(s)", "done")
    return {
        "trace": with_trace(
            state, trace_entry("save_memory", started, runtime.context, saved=saved)
        )
    }


def fact_text(sentence: str) -> str:
    """A cited sentence as a fact: its citations and markup taken out."""
    bare = " ".join(_CITATION.sub("", sentence).split()).strip(" *_")
    return re.sub(r"\s+([.!?,;])", r"\1", bare)


def renumber_citations(
    draft: str, available: int, alias: Mapping[int, int] | None = None
) -> tuple[str, list[int]]:
    """``draft`` with its citations numbered 1, 2, ... in the order they first appear, and the
    retrieval numbers they stood for, in that order; a number ``alias`` maps to another (a
    duplicate of its passage) takes that one's. A number no chunk has is left as written."""
    alias = alias or {}
    order: dict[int, int] = {}
    for found in _CITATION.findall(draft):
        n = alias.get(int(found), int(found))
        if 0 < n <= available and n not in order:
            order[n] = len(order) + 1

    def renumber(match: re.Match[str]) -> str:
        n = alias.get(int(match.group(1)), int(match.group(1)))
        return f"[{order[n]}]" if n in order else match.group(0)

    return _CITATION.sub(renumber, draft), list(order)


def duplicate_alias(chunks: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Each chunk number whose passage an earlier chunk holds, mapped to that earlier one."""
    alias: dict[int, int] = {}
    for n in range(2, len(chunks) + 1):
        for m in range(1, n):
            if m not in alias and same_passage(chunks[m - 1], chunks[n - 1]):
                alias[n] = m
                break
    return alias


def _settled_as(state: PaperPilotState, audit: Audit, not_found: bool) -> str:
    if state.get("error"):
        return "failed"
    if not_found:
        return NOT_IN_NOTES
    if state.get("web_used"):
        return FROM_THE_WEB
    if state.get("forced"):
        return "forced"
    if state.get("unchecked"):
        return "unchecked"
    return "checked" if audit.passed else PARTLY


def _closing_note(settled: str, audit: Audit) -> str:
    """The sentence under an answer that is not plainly checked: how it stands, what to do."""
    if settled == FROM_THE_WEB:
        return "Answered with web results, marked (web): not checked against your notes and not remembered; check the sources."  # fmt: skip
    if settled == "forced":
        return "The critic could not confirm every claim; check the sources."
    if settled == "unchecked":
        return "Unchecked: the critic gave no verdict, so this answer is not remembered; check the sources."  # fmt: skip
    if settled == PARTLY:
        uncovered = f" No cited source covers {', '.join(audit.uncovered)}." if audit.uncovered else ""  # fmt: skip
        return f"Partly supported: the marked sentences are not supported by the sources they cite, and only the supported ones are remembered.{uncovered}"  # fmt: skip
    return ""


async def format_output(state: PaperPilotState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """The answer with its numbered citations (each passage once) and a Sources list naming
    the files, its failing sentences marked; or, when the notes do not answer it, that plain
    statement with the closest notes. The trace goes on the record."""
    chunks = state.get("chunks") or []
    audit = audit_of(state)
    error = bool(state.get("error"))
    not_found = not error and (bool(state.get("not_found")) or not audit.supported)
    settled = _settled_as(state, audit, not_found)
    sources: list[dict[str, Any]] = []
    if not_found:
        if state.get("draft") and state.get("outcome") != "not_in_notes":
            emit_draft("unchecked", NOT_IN_NOTES)
        text = not_in_notes_text(state, bool(state.get("web_enabled")))
    else:
        draft = state.get("draft", "").strip()
        if not error and not audit.passed:
            draft = marked_answer(draft, audit)
        draft, cited = renumber_citations(draft, len(chunks), duplicate_alias(chunks))
        for new, old in enumerate(cited, 1):
            chunk = chunks[old - 1]
            sources.append({"n": new, "title": chunk["title"], "section": chunk["section"],
                            "where": source_location(chunk), "doc_id": chunk["doc_id"],
                            "collection": chunk.get("collection") or ""})  # fmt: skip
        prior = prior_texts(state)
        if prior and any(s.status == "supported" and repeats_prior(s.text, prior) for s in audit.sentences):  # fmt: skip
            draft += f"\n\n_{ALREADY_LEARNED}_"
        text = draft
        if sources:
            text += "\n\n**Sources**\n" + "\n".join(
                f"- [{s['n']}] {s['title']}" + (f" — {s['section']}" if s["section"] else "")
                + f" (`{s['where']}`)" + (" (web)" if s["collection"] == "web" else "")
                for s in sources
            )  # fmt: skip
        note = _closing_note(settled, audit)
        text += f"\n\n_{note}_" if note else ""
    if state.get("web_note") and not error:
        text += f"\n\n_{state['web_note']}_"
    trace = {
        "intent": state.get("intent"),
        "confidence": state.get("confidence"),
        "strategy": state.get("strategy"),
        "retries": state.get("retries", 0),
        "revised": bool(state.get("revised")),
        "forced": bool(state.get("forced")),
        "unchecked": bool(state.get("unchecked")),
        "verdict": state.get("verdict"),
        "settled": settled,
        "audit": audit.as_dict(),
        "stages": list(state.get("trace") or []),
    }
    log_trace(trace, runtime.context.conversation_id, runtime.context.user_message_id)
    meta: dict[str, Any] = {"paper_pilot": trace, "sources": sources}
    if not_found:
        meta["closest"] = [{"title": c["title"], "where": source_location(c)} for c in chunks[:CLOSEST_NOTES]]  # fmt: skip
    return {"messages": [AIMessage(content=text, additional_kwargs={"record_meta": meta})]}


# -- the graph ------------------------------------------------------------------------------


def build_graph(profile: Profile) -> StateGraph[PaperPilotState, TurnContext, Any, Any]:
    graph: StateGraph[PaperPilotState, TurnContext, Any, Any] = StateGraph(
        PaperPilotState, context_schema=TurnContext
    )
    graph.add_node("load_memory", load_memory)
    graph.add_node("scope", scope)
    graph.add_node("route", route)
    graph.add_node("direct", direct)
    graph.add_node("rewoo", rewoo)
    graph.add_node("react", react)
    graph.add_node("synthesize", synthesize)
    graph.add_node("critic", critic)
    graph.add_node("audit", audit)
    graph.add_node("revise", revise)
    graph.add_node("retry_refine", retry_refine)
    graph.add_node("web_fallback", web_fallback)
    graph.add_node("save_memory", save_memory)
    graph.add_node("format_output", format_output)
    graph.add_edge(START, "load_memory")
    graph.add_edge("load_memory", "scope")
    graph.add_edge("scope", "route")
    plan_entry = add_plan_and_execute(graph)
    graph.add_conditional_edges(
        "route",
        choose_strategy,
        {"direct": "direct", "plan_and_execute": plan_entry, "rewoo": "rewoo", "react": "react"},
    )
    for strategy in ("direct", "rewoo", "react"):
        graph.add_edge(strategy, "synthesize")
    graph.add_edge("synthesize", "critic")
    graph.add_edge("critic", "audit")
    graph.add_conditional_edges(
        "audit",
        after_audit,
        ["save_memory", "revise", "retry_refine", "web_fallback", "format_output"],
    )
    graph.add_edge("revise", "synthesize")
    graph.add_edge("retry_refine", "route")
    graph.add_edge("web_fallback", "format_output")
    graph.add_edge("save_memory", "format_output")
    graph.add_edge("format_output", END)
    return graph
