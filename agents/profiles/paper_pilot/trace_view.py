"""A paper-pilot reply's trace, shown and logged: the stages in order with their timings and
model, the queries, the chunks each retrieval found (scores, collections), the critic's verdict,
the citation audit per sentence, and the retries and revisions with their reasons.

:func:`trace_markdown` is what the app's "Reply trace" shows (from the record's meta alone);
:func:`log_trace` writes the same trace to ``weaver.log``, one JSON line per stage, its text
under ``content`` so that the log's usual redaction applies to it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

logger = logging.getLogger(__name__)

MODEL_STAGES = frozenset(
    {"route", "plan", "replan", "react", "synthesize", "critic", "retry_refine", "web_fallback"}
)
"""The stages that ask the model (the others retrieve, check or remember)."""
_MARKS = {"supported": "✓", "unsupported": "✗", "uncited": "!", "prior": "·", "not a claim": " "}
_SHOWN_FACTS = ("recalled", "collections", "query", "entities", "search_in", "steps", "queries",
                "score", "passed", "feedback", "outcome", "retry", "saved", "error", "not_found",
                "no_answer", "failures", "fallback")  # fmt: skip


def brief_chunks(chunks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What a trace keeps of the chunks a retrieval found."""
    return [
        {
            "title": str(c.get("title") or c.get("doc_id") or ""),
            "section": str(c.get("section") or ""),
            "collection": str(c.get("collection") or ""),
            "score": c.get("score"),
        }
        for c in chunks
    ]


def log_trace(trace: Mapping[str, Any], conversation_id: str, message_id: str) -> None:
    """One JSON line per stage: its name, time and model as fields, the rest (queries, what was
    found, verdicts: the user's words and the notes') as ``content``."""
    for n, stage in enumerate(trace.get("stages") or [], 1):
        rest = {k: v for k, v in stage.items() if k not in ("stage", "ms", "model")}
        logger.info(
            "paper-pilot stage",
            extra={
                "stage": stage.get("stage"),
                "step": n,
                "ms": stage.get("ms"),
                "model": stage.get("model"),
                "conversation_id": conversation_id,
                "message_id": message_id,
                "content": json.dumps(rest, ensure_ascii=False, default=str),
            },
        )


def _facts(stage: Mapping[str, Any]) -> str:
    shown = []
    for key in _SHOWN_FACTS:
        value = stage.get(key)
        if value in (None, "", [], False) and key != "recalled":
            continue
        if value is None:
            continue
        if isinstance(value, list):
            value = "; ".join(str(v) for v in value)
        shown.append(f"{key.replace('_', ' ')}: {value}")
    return " · ".join(shown)


def trace_markdown(meta: Mapping[str, Any]) -> str | None:
    """The trace of one reply as Markdown, from its record's meta (``None``: it has none)."""
    trace = meta.get("paper_pilot")
    if not isinstance(trace, Mapping):
        return None
    confidence = trace.get("confidence")
    head = [
        f"intent **{trace.get('intent') or 'none read'}**"
        + (f" ({confidence:.2f})" if isinstance(confidence, int | float) else ""),
        f"strategy **{trace.get('strategy') or '?'}**",
        f"settled **{trace.get('settled') or '?'}**",
        f"retries {trace.get('retries', 0)}",
        f"sent back {'once' if trace.get('revised') else 'never'}",
    ]
    lines = ["# Reply trace", "", " · ".join(head), "", "## Stages", ""]
    for n, stage in enumerate(trace.get("stages") or [], 1):
        model = f" · model `{stage['model']}`" if stage.get("model") else ""
        facts = _facts(stage)
        lines.append(f"{n}. **{stage.get('stage')}** {stage.get('ms', '?')} ms{model}" + (f" — {facts}" if facts else ""))  # fmt: skip
        for chunk in stage.get("found") or []:
            score = chunk.get("score")
            scored = f"{score:.2f}" if isinstance(score, int | float) else "?"
            where = f" ({chunk['collection']})" if chunk.get("collection") else ""
            lines.append(f"    - {scored} {chunk.get('title')}" + (f" — {chunk['section']}" if chunk.get("section") else "") + where)  # fmt: skip
        if stage.get("rejected_draft"):
            lines.append(f"    - rejected draft: {' '.join(str(stage['rejected_draft']).split())[:300]}")  # fmt: skip
    verdict = trace.get("verdict")
    lines += ["", "## Critic (the model's verdict)", ""]
    if isinstance(verdict, Mapping):
        word = "passed" if verdict.get("passed") else "failed"
        lines.append(f"{word}, score {verdict.get('score')}" + (f": {verdict.get('feedback')}" if verdict.get("feedback") else ""))  # fmt: skip
    else:
        lines.append("no verdict")
    audit = trace.get("audit")
    lines += ["", "## Citation audit (checked here)", ""]
    if isinstance(audit, Mapping):
        lines.append(f"{'passed' if audit.get('passed') else 'failed'}: {audit.get('supported', 0)} supported, {audit.get('failing', 0)} not")  # fmt: skip
        if audit.get("uncovered"):
            lines.append(f"no cited source covers: {', '.join(map(str, audit['uncovered']))}")
        lines.append("")
        for sentence in audit.get("sentences") or []:
            status = str(sentence.get("status"))
            reason = f" ({sentence['reason']})" if sentence.get("reason") else ""
            lines.append(f"- {_MARKS.get(status, '?')} {status}: {sentence.get('sentence')}{reason}")  # fmt: skip
    else:
        lines.append("not run")
    return "\n".join(lines)
