"""The mediator's statement tools; the docstrings below are the model's manual.

``propose_statement`` puts a candidate shared statement in the shared channel and
``revise_statement`` its next version, later on the same branch and linked to the version it
revises (:mod:`agents.shared_space.statements`). Both are held, as ``post_to_shared`` is, when
they repeat a participant's private words. The participants answer at their own seats; the
tools never record an answer, and nothing they return can mark a statement agreed.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.tools import ToolException, tool
from langgraph.prebuilt import ToolRuntime

from agents.profiles.mediator.tool_checks import (
    branch,
    checked_content,
    named_participants,
    neutral_label,
    participants,
    shared_words,
)
from agents.shared_space.actions import SET_AGENDA
from agents.shared_space.agenda import AGENDA_KIND, clean_topics, label_problem
from agents.shared_space.events import SHARED
from agents.shared_space.space import names_in_words
from agents.shared_space.statements import (
    PROPOSE_STATEMENT,
    REVISE_STATEMENT,
    next_key,
    statement_meta,
    statements_on,
)

logger = logging.getLogger(__name__)

TOPIC_CHARS = 80


def _proposed_this_turn(runtime: ToolRuntime[Any]) -> int:
    """Statements proposed earlier in this turn (done, or called before this one in the same
    answer): they have keys already."""
    messages = list((getattr(runtime, "state", None) or {}).get("messages", []))
    humans = [i for i, m in enumerate(messages) if getattr(m, "type", "") == "human"]
    messages = messages[humans[-1] + 1 :] if humans else messages  # this turn's only
    done = sum(
        1
        for m in messages
        if getattr(m, "type", "") == "tool"
        and getattr(m, "name", "") == PROPOSE_STATEMENT
        and getattr(m, "status", "") != "error"
    )
    this_call = getattr(runtime, "tool_call_id", None)
    for message in reversed(messages):
        ids = [c.get("id") for c in getattr(message, "tool_calls", None) or []]
        if this_call in ids:
            calls = message.tool_calls[: ids.index(this_call)]
            return done + sum(1 for c in calls if c.get("name") == PROPOSE_STATEMENT)
    return done


@tool(PROPOSE_STATEMENT, response_format="content_and_artifact")
def propose_statement(
    topic: str,
    text: str,
    runtime: ToolRuntime[Any],
    draws_on: list[str] | None = None,
    reflects: list[str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """Propose a shared statement: what you believe the participants agree on about one topic.

    topic: a few words naming what it is about (e.g. "monthly budget"); use the agenda's
    words when it is one of its topics.
    text: the statement itself, written so that every participant could sign it
    (e.g. "We put 500 a month into savings before anything else.").
    draws_on: the participants whose private messages to you it uses, even in your own words
    (e.g. ["Sam"]); each is asked at their seat first, and nothing is posted until they allow it.
    reflects: the participants whose points the statement takes up (e.g. ["Alex", "Sam"]).
    Everyone reads it in the shared space and answers at their own seat: agree, partly or
    disagree, with an optional critique that only you read. Propose one when the
    conversation shows common ground; then revise it from the critiques.
    """
    name = " ".join(topic.split())[:TOPIC_CHARS]
    if not name:
        raise ToolException("The topic is empty; name what the statement is about.")
    problem = label_problem(name)
    if problem is not None:
        raise ToolException(problem)
    neutral_label(name, runtime, "Statement topic", PROPOSE_STATEMENT)
    body = shared_words(checked_content(text), runtime, PROPOSE_STATEMENT, draws_on or [])
    named = _reflected(runtime, reflects, draws_on)
    key = next_key(branch(runtime), _proposed_this_turn(runtime))
    people = participants(runtime)
    logger.info("statement proposed", extra={"statement": key, "chars": len(body)})
    meta = statement_meta(PROPOSE_STATEMENT, key, name, body, 1, None, named)
    return (
        f"Statement {key} (version 1, {name}) posted to the shared space; "
        f"{names_in_words(people)} answer it at their seats.",
        {"record_meta": meta},
    )


@tool(REVISE_STATEMENT, response_format="content_and_artifact")
def revise_statement(
    statement: str,
    text: str,
    runtime: ToolRuntime[Any],
    draws_on: list[str] | None = None,
    reflects: list[str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """Post the next version of a statement, written from the participants' answers.

    statement: its key as listed under "Statements" (e.g. "S1").
    text: the whole revised statement (not only the change).
    draws_on: as for propose_statement: whose private messages it uses; they are asked first.
    reflects: as for propose_statement: whose points it takes up.
    Use it after the participants have answered: meet the critiques without taking a side
    and without quoting anything said to you privately. Everyone answers the new version.
    """
    found = {s.key.casefold(): s for s in statements_on(branch(runtime))}
    current = found.get(statement.strip().casefold())
    if current is None:
        known = ", ".join(s.key for s in found.values()) or "none yet; use propose_statement"
        raise ToolException(
            f"{statement!r} is not a statement of this conversation; the statements are: {known}."
        )
    body = shared_words(checked_content(text), runtime, REVISE_STATEMENT, draws_on or [])
    named = _reflected(runtime, reflects, draws_on)
    latest = current.latest
    number = latest.number + 1
    logger.info("statement revised", extra={"statement": current.key, "version": number})
    meta = statement_meta(
        REVISE_STATEMENT, current.key, current.topic, body, number, latest.record_id, named
    )
    return (
        f"Statement {current.key} version {number} posted to the shared space (it revises "
        f"version {latest.number}); everyone answers it again at their seats.",
        {"record_meta": meta},
    )


def _reflected(
    runtime: ToolRuntime[Any], reflects: list[str] | None, draws_on: list[str] | None
) -> list[str]:
    """Whose points a statement takes up: those it names, then those it draws on."""
    named = named_participants([*(reflects or []), *(draws_on or [])], runtime, "reflects")
    return named


@tool(SET_AGENDA, response_format="content_and_artifact")
def set_agenda(topics: list[str], runtime: ToolRuntime[Any]) -> tuple[str, dict[str, Any]]:
    """Keep the agenda: the short list of topics raised so far, shown to everyone.

    topics: every topic, a few words each, in the order to take them (e.g. ["monthly budget",
    "holiday savings"]); the whole list each time, at most 8. Each topic shows as open,
    statement proposed or agreed, from the statements whose topic uses the same words.
    """
    try:
        cleaned = clean_topics(topics)
    except ValueError as exc:
        raise ToolException(str(exc)) from None
    neutral_label("\n".join(cleaned), runtime, "Agenda", SET_AGENDA)
    logger.info("agenda set", extra={"topics": len(cleaned)})
    meta = {"kind": AGENDA_KIND, "topics": cleaned, "visibility": SHARED}
    return f"Agenda set for everyone: {'; '.join(cleaned)}.", {"record_meta": meta}


STATEMENT_TOOLS = [propose_statement, revise_statement, set_agenda]
for _tool in STATEMENT_TOOLS:
    _tool.handle_tool_error = True
