"""The summary of a branch's older turns (the palette's "Summarise older turns" and the
automatic one before a turn), written by the ``summary`` role's model when the settings give
it one (:mod:`agents.role_models`), else by the turn's model; what it covers and how it is
read are :mod:`agents.context`'s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.context import (
    PRIVATE_SUMMARY_NOTE,
    SUMMARY_HEADING,
    SUMMARY_PROMPT,
    context_records,
    extract,
    older_records,
    transcript,
)
from storage.models import MessageRecord


async def summarise_older(
    store: Any,
    model: Any,
    leaf_id: str,
    *,
    extractive: bool = False,
    settings: Mapping[str, Any] | None = None,
) -> MessageRecord | None:
    """Summarise the branch to ``leaf_id`` above its latest turns and store the summary on the
    last record it covers; ``None`` when the branch is too short to need one.

    The summary is written by the ``summary`` role's model when ``settings`` give it one
    (:mod:`agents.role_models`), else by ``model`` (the turn's chat model). A role model that
    fails (unreachable, or its summary refused, filtered, cut or empty) leaves the summary to
    ``model``, and the record says so in one sentence (``summary_note``). ``extractive`` (the
    turn's model is the offline demo, which cannot summarise) keeps the first line of each
    message instead of asking it, so a summary never puts a sentence with no content in the
    place of real messages. A summary of ``model`` that was refused, filtered, cut at the
    output limit or empty raises :class:`~agents.reply_outcome.MarkedReply` (its sentence for
    the user) and stores nothing. ``summary_model`` names the model that wrote it (none
    for an extract)."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from agents.reply_outcome import written_text
    from agents.role_models import RoleCalls

    path = store.path_to_root(leaf_id)
    older = older_records(path)
    if not older:
        return None
    earlier, _ = context_records(path[: path.index(older[-1]) + 1], 0)
    text = transcript(older)
    if earlier:
        text = f"{SUMMARY_HEADING}\n{earlier}\n\n{text}"

    async def write(chosen: Any) -> tuple[str, str]:
        if chosen is model and extractive:
            return extract(earlier, older), "extract"
        prompt = SUMMARY_PROMPT + (PRIVATE_SUMMARY_NOTE if "[private: " in text else "")
        answer = await chosen.ainvoke(
            [SystemMessage(prompt), HumanMessage(text)], config={"tags": ["nostream"]}
        )
        # A summary refused, filtered, cut, empty or only calls never takes the place of the
        # messages; its text is the answer's words, never the raw form of its content.
        return written_text(answer, "summary"), "model"

    calls = RoleCalls(settings or {}, model)
    summary, kind = await calls.call("summary", "summary", write)
    meta: dict[str, Any] = {
        "summary": summary.strip(),
        "summary_covers": len(older),
        "summary_kind": kind,
    }
    if kind == "model":
        meta["summary_model"] = calls.asked[-1].model
    if calls.said:
        meta["summary_note"] = calls.said[0]
    return store.update_message(older[-1].id, meta=meta)  # type: ignore[no-any-return]
