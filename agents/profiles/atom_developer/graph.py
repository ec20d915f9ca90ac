"""atom-developer's graph: draft the atoms and their spec, validate, fix from the errors, and
fall back to a safe stub when the fixes run out.

    read_request → draft (or the user's own code) → validate   (nothing to work on: guide)
      → valid: finish
      → errors, fewer than MAX_FIXES fixes so far: reflect → validate
      → errors after the last fix: fallback → finish

Each stage reports a line to the tool pane; the draft and reflect model calls are internal
(``nostream``), their progress shown as lines written, so a rejected draft never reaches the
chat. Generated code runs only in the validator's sandboxed subprocess. The reply shows the
final code and spec, the report per level and whether it is the stub; the record keeps them as
artifacts (saved as files on request) with the turn's trace.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any, Literal, NamedTuple

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agents.graph import emit_status
from agents.profile import Profile, TurnContext
from agents.profiles.atom_developer import prompts
from agents.profiles.atom_developer.model_text import unicode_text
from agents.profiles.atom_developer.request import (
    fenced,
    last_block,
    outside_fences,
    read_request,
)
from agents.profiles.atom_developer.request_check import asks_for_atom, earlier_work
from agents.profiles.atom_developer.state import MAX_FIXES, DeveloperState
from agents.profiles.atom_developer.stub import STUB_CODE, stub_spec
from agents.profiles.atom_developer.validation import avalidate
from agents.profiles.atom_developer.validation.one_line import code_span
from agents.profiles.atom_developer.verdict import artifact_name, sample_scope, verdict_head
from agents.reply_outcome import MarkedReply, written_text
from agents.structured import NoAnswer

logger = logging.getLogger(__name__)

INTERNAL: RunnableConfig = {"tags": ["nostream"]}
VALIDATING = "Running Architecture 10.2 compliance tests ..."
FIXING = "Type-safety violation found, fixing automatically ..."
_CODE = frozenset({"python", "py", "python3"})
_SPEC = frozenset({"yaml", "yml"})


def _text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content if isinstance(b, dict))


def _trace(state: DeveloperState, stage: str, started: float, **facts: Any) -> list[dict[str, Any]]:
    entry = {"stage": stage, "ms": round((time.perf_counter() - started) * 1000, 1), **facts}
    return [*(state.get("trace") or []), entry]


class Written(NamedTuple):
    """What the model wrote: the atoms, the spec, and its words around them."""

    code: str
    spec: str
    notes: str


NOTES_CHARS = 1_000
"""How much of the model's prose beside its code a reply quotes."""


def _notes(text: str) -> str:
    """The model's prose outside its fenced blocks, as it wrote it (bounded)."""
    prose = outside_fences(text).strip()
    prose = re.sub(r"\n{3,}", "\n\n", prose)
    return prose if len(prose) <= NOTES_CHARS else prose[: NOTES_CHARS - 1].rstrip() + "…"


async def _write(runtime: Runtime[TurnContext], node: str, request: str) -> Written:
    """Ask the model for code and spec; the tool pane counts the lines as they arrive.

    A draft the model refused, or that was filtered, cut at the output limit or empty, ends
    the turn marked (:class:`~agents.reply_outcome.MarkedReply`): the safe stub is never
    answered in its place as if the drafts had merely failed validation."""
    messages = [SystemMessage(runtime.context.system_prompt), HumanMessage(request)]
    text = ""
    shown = 0
    whole: Any = None
    async for chunk in runtime.context.model.astream(messages, config=INTERNAL):
        whole = chunk if whole is None else whole + chunk
        text += _text(chunk)
        lines = text.count("\n")
        if lines >= shown + 40:
            shown = lines
            emit_status(node, f"writing … {lines} lines")
    try:  # refused, filtered, cut, empty or only calls: no draft was written
        written_text(whole if whole is not None else AIMessage(content=""), node)
    except MarkedReply as marked:
        emit_status(node, marked.outcome.sentence(node), "error")
        raise
    text = unicode_text(text)
    code, spec = last_block(text, _CODE), last_block(text, _SPEC)
    return Written(code if code.strip() else "", spec if spec.strip() else "", _notes(text))


# -- the stages ---------------------------------------------------------------------------------


async def read_user_request(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    messages = list(state.get("messages") or [])
    text = _text(messages[-1]) if messages else ""
    request = read_request(text, runtime.context.project_root)
    if request.note:
        emit_status("read_request", request.note, "error")
    elif request.sample:
        where = "your message" if request.sample_from == "message" else request.sample_from
        lines = len(request.sample.splitlines())
        cut = f" ({request.sample_cut})" if request.sample_cut else ""
        emit_status("read_request", f"{lines} sample line(s) from {where}{cut}", "done")
    found: dict[str, Any] = {
        "user_intent": request.intent,
        "log_snippet": request.sample,
        "sample_from": request.sample_from,
        "sample_cut": request.sample_cut,
        "generated_code": request.code,
        "pseudo_contract": request.spec,
        "user_spec": request.spec,
        "drafted_by_user": bool(request.code),
        "asks_for_atom": bool(request.code or request.sample),
        "previous_code": "",
    }
    if not (request.code or request.sample):
        found |= await _without_sample(runtime, request.intent, messages[:-1])
    return {
        **found,
        "validation_errors": [],
        "iteration_count": 0,
        "user_atoms": [],
        "stub": False,
        "rejected_code": "",
        "fix_notes": "",
        "report": {},
        "trace": _trace(state, "read_request", started, sample_lines=len(str(found["log_snippet"]).splitlines())),
    }  # fmt: skip


async def _without_sample(
    runtime: Runtime[TurnContext], intent: str, earlier_messages: list[AnyMessage]
) -> dict[str, Any]:
    """A message with no sample or code: does it ask for an atom, and does it follow up on
    the branch's last draft (then that draft and its sample come along)?"""
    earlier = earlier_work(earlier_messages, runtime.context.project_root)
    asks = await asks_for_atom(runtime.context, intent, earlier)
    if isinstance(asks, NoAnswer) and asks.marked is not None:
        # Refused, filtered or cut: said as such, never answered with the guide instead.
        raise MarkedReply(asks.marked, "answer")
    if isinstance(asks, NoAnswer):
        emit_status("read_request", f"could not tell whether this asks for an atom ({asks.reason})", "error")  # fmt: skip
        asks = earlier.found
    if not (asks and earlier.found):
        return {"asks_for_atom": asks}
    lines = len(earlier.sample.splitlines())
    emit_status("read_request", f"following up on the earlier draft ({lines} sample line(s))", "done")  # fmt: skip
    return {
        "asks_for_atom": True,
        "user_intent": f"{earlier.intent}; {intent}" if earlier.intent else intent,
        "log_snippet": earlier.sample,
        "sample_from": "an earlier message" if earlier.sample else "",
        "pseudo_contract": earlier.spec,
        "previous_code": earlier.code,
    }


GUIDE = (
    "Tell me what to pull out of a log, and paste a few sample lines in a fenced block (or "
    "name a log file in the project), for example:\n\n"
    "    Extract the error code when it is 500 or 503 from logs/app.log\n\n"
    "I draft the three atoms and their YAML spec, validate them (a syntax-tree check, a "
    "sandboxed contract run, a check that code and spec agree) and fix what fails. To check "
    "an atom of your own, paste it in a ```python block."
)


def after_request(state: DeveloperState) -> Literal["draft", "validate", "guide"]:
    """The user's own code is validated as it is; a message that asks for no atom (see
    :mod:`.request_check`) gets a short guide; otherwise the model drafts."""
    if state.get("drafted_by_user"):
        return "validate"
    return "draft" if state.get("asks_for_atom") else "guide"


async def guide(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """Say what this profile needs, instead of drafting an atom for "hello"."""
    return {"messages": [AIMessage(content=GUIDE)]}


def _policy(state: DeveloperState, written: str) -> str:
    """The spec a draft or fix is checked against: the one the user gave, whatever the model
    wrote (a fix may not move the goalposts it failed), else the model's, else the last."""
    return state.get("user_spec") or written or state.get("pseudo_contract", "")


async def draft(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    emit_status("draft", "drafting the atoms and the YAML spec")
    request = prompts.draft_message(
        state.get("user_intent", ""),
        state.get("log_snippet", ""),
        state.get("previous_code", ""),
        state.get("pseudo_contract", ""),
        state.get("user_spec", ""),
    )
    code, spec, notes = await _write(runtime, "draft", request)
    if not code:  # the model asked for what it needs instead of drafting: its words answer
        emit_status("draft", "no draft: the model said what it needs", "error")
        return {
            "generated_code": "",
            "messages": [AIMessage(content=notes or GUIDE)],
            "trace": _trace(state, "draft", started, lines=0),
        }
    emit_status("draft", f"draft written: {code.count(chr(10))} lines of code", "done")
    return {
        "generated_code": code,
        "pseudo_contract": _policy(state, spec),
        "trace": _trace(state, "draft", started, lines=code.count("\n")),
    }


async def validate(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    emit_status("validate", VALIDATING)
    spec = state.get("pseudo_contract") or None
    whole = not state.get("drafted_by_user")  # a model's draft is checked as the whole twin
    code, sample = state.get("generated_code", ""), state.get("log_snippet", "")
    keep = tuple(state.get("user_atoms") or ())  # a fix of the user's code keeps its atoms
    report = await avalidate(code, spec, sample, whole=whole, keep=keep)
    errors = report.errors
    summary = (
        "all levels passed"
        if report.valid
        else f"not checked: {report.unchecked}"
        if report.unchecked
        else f"{len(errors)} error(s): {errors[0] if errors else 'no atom found'}"
    )
    emit_status("validate", summary, "done" if report.valid else "error")
    first_of_users = not whole and not state.get("iteration_count")
    return {
        "validation_errors": errors if not report.valid else [],
        "report": report.as_dict(),
        "report_text": report.render(timings=False, markdown=True),
        "trace": _trace(state, "validate", started, valid=report.valid, errors=len(errors)),
        **({"user_atoms": list(report.atoms)} if first_of_users else {}),
    }


def after_draft(state: DeveloperState) -> Literal["validate", "__end__"]:
    """A draft is validated; a model that wrote none (it said what it needs) has answered."""
    return "validate" if state.get("generated_code") else "__end__"


def after_validate(state: DeveloperState) -> Literal["finish", "reflect", "fallback"]:
    """Valid: finish. Never run (the sandbox cannot lock itself down): finish at once, said
    as not checked (no fix can help, and the stub could not be checked either). Errors:
    reflect, or fall back to the stub after the last fix."""
    if not state.get("validation_errors") and state.get("report", {}).get("valid"):
        return "finish"
    if state.get("report", {}).get("unchecked"):
        return "finish"
    if state.get("stub"):
        return "finish"  # the stub's own report is shown as it is
    return "reflect" if state.get("iteration_count", 0) < MAX_FIXES else "fallback"


async def reflect(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    started = time.perf_counter()
    fix = state.get("iteration_count", 0) + 1
    emit_status("reflect", f"{FIXING} (fix {fix} of {MAX_FIXES})")
    request = prompts.reflect_message(
        state.get("user_intent", ""),
        state.get("log_snippet", ""),
        state.get("generated_code", ""),
        state.get("pseudo_contract", ""),
        list(state.get("validation_errors") or []),
        fix,
        MAX_FIXES,
    )
    code, spec, notes = await _write(runtime, "reflect", request)
    changed = code.strip() != state.get("generated_code", "").strip()
    emit_status("reflect", f"fix {fix}: {'code rewritten' if changed else 'no change'}", "done")
    return {
        "generated_code": code or state.get("generated_code", ""),
        "pseudo_contract": _policy(state, spec),
        "iteration_count": fix,
        "fix_notes": notes,
        "trace": _trace(state, "reflect", started, fix=fix, changed=changed),
    }


async def fallback(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """No draft passed: validate and answer the safe stub (it never claims to be more)."""
    started = time.perf_counter()
    emit_status("fallback", f"no draft passed after {MAX_FIXES} fixes: answering the safe stub")
    spec = stub_spec(state.get("user_intent", ""))
    report = await avalidate(STUB_CODE, spec, "", whole=True)
    emit_status("fallback", "safe stub validated" if report.valid else "stub check failed", "done")
    return {
        "rejected_code": state.get("generated_code", ""),
        "generated_code": STUB_CODE,
        "pseudo_contract": spec,
        "stub": True,
        "validation_errors": state.get("validation_errors") or [],
        "report": report.as_dict(),
        "report_text": report.render(timings=False, markdown=True),
        "trace": _trace(state, "fallback", started, stub_valid=report.valid),
    }


async def finish(state: DeveloperState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """The reply: verdict, code, spec and the report per level; artifacts on the record."""
    code = state.get("generated_code", "")
    spec = state.get("pseudo_contract", "")
    stub = bool(state.get("stub"))
    report = state.get("report") or {}
    valid = bool(report.get("valid"))
    unchecked = str(report.get("unchecked") or "")
    fixes = state.get("iteration_count", 0)
    name = artifact_name(spec, stub, valid, bool(unchecked))
    head = verdict_head(report, stub, fixes, bool(state.get("drafted_by_user")))
    scope = sample_scope(state.get("log_snippet", ""), state.get("sample_cut", ""))
    if scope and not unchecked and not stub:
        head += f" {scope}"
    parts = [head, f"**{name}.py**", fenced(code, "python")]
    if spec:
        parts += [f"**{name}.yaml**", fenced(spec, "yaml")]
    parts += ["**Validation report**", state.get("report_text", "")]
    if stub and state.get("fix_notes"):
        parts += ["**What the last fix said**", state.get("fix_notes", "")]
    if stub and state.get("validation_errors"):
        listed = "\n".join(f"- {code_span(e)}" for e in state.get("validation_errors") or [])
        parts += ["**The last draft's errors**", listed]
    artifacts = [{"name": f"{name}.py", "language": "python", "text": code, "folder": "atoms"}]
    if spec:
        artifacts.append(
            {"name": f"{name}.yaml", "language": "yaml", "text": spec, "folder": "atoms"}
        )
    meta = {
        "atom_developer": {
            # the stub is never stored as a validated atom: its own check is "stub_valid"
            "valid": valid and not stub,
            "stub_valid": valid and stub,
            "unchecked": unchecked,
            "stub": stub,
            "fixes": fixes,
            "report": report,
            "stages": state.get("trace") or [],
        },
        "artifacts": artifacts,
    }
    return {
        "messages": [AIMessage(content="\n\n".join(parts), additional_kwargs={"record_meta": meta})]
    }


def build_graph(profile: Profile) -> StateGraph[DeveloperState, TurnContext, Any, Any]:
    graph: StateGraph[DeveloperState, TurnContext, Any, Any] = StateGraph(
        DeveloperState, context_schema=TurnContext
    )
    graph.add_node("read_request", read_user_request)
    graph.add_node("draft", draft)
    graph.add_node("validate", validate)
    graph.add_node("reflect", reflect)
    graph.add_node("fallback", fallback)
    graph.add_node("finish", finish)
    graph.add_node("guide", guide)
    graph.add_edge(START, "read_request")
    graph.add_conditional_edges("read_request", after_request, ["draft", "validate", "guide"])
    graph.add_edge("guide", END)
    graph.add_conditional_edges("draft", after_draft, ["validate", END])
    graph.add_conditional_edges("validate", after_validate, ["finish", "reflect", "fallback"])
    graph.add_edge("reflect", "validate")
    graph.add_edge("fallback", "finish")
    graph.add_edge("finish", END)
    return graph
