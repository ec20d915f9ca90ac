"""paper-pilot's graph state and the structured answers its stages ask the model for."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

Intent = Literal["factual", "comparative", "multi_hop", "exploratory", "follow_up"]
Strategy = Literal["direct", "plan_and_execute", "rewoo", "react"]

STRATEGY_OF: dict[str, Strategy] = {
    "factual": "direct",
    "follow_up": "direct",
    "comparative": "rewoo",
    "multi_hop": "plan_and_execute",
    "exploratory": "react",
}
"""Which strategy answers which intent."""


class RouteDecision(BaseModel):
    """The kind of research question and what it is about, in one answer: the intent (which
    picks the strategy), the things it names, the question rewritten to stand on its own and
    the listed collections it asks to search."""

    intent: Intent = Field(description="factual, comparative, multi_hop, exploratory or follow_up")
    confidence: float = Field(ge=0.0, le=1.0, description="how sure, from 0 to 1")
    reason: str = Field(default="", description="one short sentence")
    entities: list[str] = Field(default_factory=list, description="methods, models, papers named")
    dimensions: list[str] = Field(
        default_factory=list, description="aspects asked about (cost, quality, ...)"
    )
    constraints: list[str] = Field(default_factory=list)
    reformulated_query: str = Field(
        default="", description="the question with every reference resolved"
    )
    collections: list[str] = Field(
        default_factory=list,
        description="the knowledge-base collections the question asks to search, by their "
        "listed names; empty to search them all",
    )
    steps: list[str] = Field(
        default_factory=list,
        description="for a multi_hop question only: at most three short search steps, in "
        "order (a later one may depend on what an earlier one finds); empty otherwise",
    )


class ResearchPlan(BaseModel):
    """Steps of retrieval for a question that needs one fact to find another."""

    steps: list[str] = Field(description="at most three search steps, in order")


class ReplanDecision(BaseModel):
    """After a step: go on, revise the next step, or write the answer."""

    action: Literal["next", "revise", "synthesize"]
    revised_step: str = Field(default="", description="the new next step, when revising")


class ReactStep(BaseModel):
    """One step of open exploration: search again, or stop and answer."""

    thought: str = Field(default="")
    action: Literal["search", "finish"]
    query: str = Field(default="")


class CriticVerdict(BaseModel):
    """Whether the draft answer is supported by the sources it cites."""

    score: float = Field(ge=0.0, le=1.0)
    passed: bool
    feedback: str = Field(default="")


class Refinement(BaseModel):
    """The question rewritten for another retrieval, after the critic's feedback."""

    query: str


class PaperPilotState(TypedDict, total=False):
    """One turn of paper-pilot; ``messages`` is the branch's history, then the turn's answer."""

    messages: Annotated[list[AnyMessage], add_messages]
    question: str
    history: list[str]
    intent: str
    confidence: float | None
    strategy: str
    entities: list[str]
    dimensions: list[str]
    query: str
    collections: list[str] | None
    """The knowledge server's collections, asked once a turn (``None`` until then)."""
    search_in: list[str]
    """The collections the question names, searched alone (empty: search every one)."""
    plan: list[str]
    step: int
    chunks: list[dict[str, Any]]
    draft: str
    verdict: dict[str, Any] | None
    retries: int
    forced: bool
    unchecked: bool
    """No critic checked the answer (it gave no verdict, or no sources were reached)."""
    prior: list[dict[str, Any]]
    error: str
    trace: list[dict[str, Any]]
    not_found: bool
    """Nothing retrieved is about the question: the notes are not answered from."""
    revised: bool
    """The draft was sent back once with the citation audit's failures."""
    outcome: str
    """How the audit settled the draft (:data:`.answer_check.Outcome`)."""
    audit_failures: list[str]
    max_retries: int
    web_enabled: bool
    web_used: bool
    web_note: str
    """The one sentence on a web search that was not sent or failed."""
