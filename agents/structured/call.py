"""``structured_call``: a model's answer in a pydantic schema, from whatever the endpoint
supports.

The ladder, best first (:class:`~agents.structured.rungs.Rung`): the schema as a forced tool;
the schema as the one tool with ``tool_choice: auto`` and an instruction to call it;
``response_format: json_object`` with the schema in the instruction; the instruction alone,
the JSON read from the prose or a ```json fence (prose holding two different JSON objects is read
as none: :func:`_one_answer`). A rung the provider refuses (HTTP 400 on
``tool_choice``, ``tools`` or ``response_format``), ignores (no tool call, no JSON) or answers
with something the schema rejects (read strictly, whole:
:mod:`agents.structured.whole_answer`) leads to the next; after the last, :class:`NoAnswer` says
why. Prose without a JSON object is never read as an answer. Any other provider failure
propagates (the turn reports it as usual).

Every answer is classified first (:func:`agents.reply_outcome.reply_outcome`): one the
provider refused, filtered or cut at its output limit is never read (a cut tool call's
arguments parse leniently into a partial object that may even fit the schema), and the ladder
stops there with :class:`NoAnswer` naming the outcome: another rung would be refused, filtered
or cut the same way. The calls go through :func:`agents.graph.folded_call.call_model_folded`
(``ainvoke`` with the streamed chunks folded), so a tool call whose streamed arguments are not
whole is never read as an answer either.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from agents.graph.folded_call import call_model_folded
from agents.providers.presets import forced_tool_choice_supported
from agents.providers.rejections import Refused, refused_feature
from agents.reply_outcome import MARKED, Kind, ReplyOutcome, reply_outcome
from agents.structured.json_text import json_objects_in
from agents.structured.rungs import MEMO, Endpoint, Rung, endpoint_of
from agents.structured.whole_answer import NotWhole, validated_whole

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
INTERNAL: RunnableConfig = {"tags": ["nostream"]}
"""Structured answers are the graph's own business, never the reply's stream."""


@dataclass(frozen=True, slots=True)
class NoAnswer:
    """No rung gave a usable answer; ``reason`` says why, in words a stage line can show."""

    reason: str
    outcome: str | None = None
    """The marked outcome the model's answer ended on (``refused``, ``filtered``, ``truncated``,
    ``unfinished``: see :mod:`agents.reply_outcome`); ``None`` when it was only not usable
    (an empty answer included: another rung may still give one)."""
    text: str = ""
    """What the marked answer said (a refusal's words)."""

    @property
    def marked(self) -> ReplyOutcome | None:
        """The answer's outcome when it ended marked, for a stage that ends the turn on it."""
        if self.outcome not in MARKED or self.outcome == "empty":
            return None
        return ReplyOutcome(cast(Kind, self.outcome), self.text)


class _Skip(Exception):
    """This rung gave nothing usable; ``refused`` names the feature the provider turned down
    (``None``: it took the request, its answer was no use)."""

    def __init__(
        self,
        reason: str,
        refused: Refused | None = None,
        outcome: str | None = None,
        text: str = "",
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.refused = refused
        self.outcome = outcome
        self.text = text
        """Set when the answer ended marked: no other rung is tried."""


def _read(answer: BaseMessage) -> AIMessage:
    """``answer``, unless it ended refused, filtered or cut (then :class:`_Skip`, final)."""
    if not isinstance(answer, AIMessage):
        raise _Skip("the model gave no answer")
    outcome = reply_outcome(answer)
    if outcome.marked and outcome.kind != "empty":
        raise _Skip(outcome.sentence("answer"), outcome=outcome.kind, text=outcome.text)
    return answer


def _with_note(messages: Sequence[BaseMessage], note: str) -> list[BaseMessage]:
    """``messages`` with ``note`` after the last user message's words."""
    out = list(messages)
    for i in range(len(out) - 1, -1, -1):
        message = out[i]
        if isinstance(message, HumanMessage):
            content = message.content
            if isinstance(content, str):
                out[i] = HumanMessage(content=f"{content}\n\n{note}", name=message.name)
            else:
                out[i] = HumanMessage(
                    content=[*content, {"type": "text", "text": note}], name=message.name
                )
            return out
    return [*out, HumanMessage(note)]


def _json_note(schema: type[BaseModel]) -> str:
    return (
        "Answer with only one JSON object, no other text, that follows this JSON schema:\n"
        + json.dumps(schema.model_json_schema(), ensure_ascii=False)
    )


def _json_mode(model: BaseChatModel) -> Any:
    """``model`` asking for ``response_format: json_object``. The field travels in the request
    body's extras: given as ``response_format``, langchain-openai streams it through the SDK's
    typed helper, which this app's dict-chunk clients do not feed."""
    extra = {
        **(getattr(model, "extra_body", None) or {}),
        "response_format": {"type": "json_object"},
    }
    return model.bind(extra_body=extra)


def _validated(schema: type[T], data: Any, how: str) -> T:
    try:
        return validated_whole(schema, data)
    except NotWhole as exc:
        raise _Skip(f"{how} did not fit the schema ({exc})") from exc


def _from_tool_call(schema: type[T], answer: AIMessage, tool: str) -> T:
    """The answer the schema's tool was called with: one call, or several alike; calls with
    different arguments (or a broken one beside them) are ambiguous, as prose is."""
    given: list[Any] = [
        call.get("args") or {} for call in answer.tool_calls if call["name"] == tool
    ]
    given += [call.get("args") for call in answer.invalid_tool_calls if call.get("name") == tool]
    if given:
        distinct = [a for n, a in enumerate(given) if a not in given[:n]]
        if len(distinct) > 1:
            raise _Skip(f"the model called the tool {len(given)} times, with different answers")
        return _validated(schema, distinct[0], "the tool call")
    found = json_objects_in(_text(answer))  # a server that ignores tools may still write JSON
    if found:
        return _one_answer(schema, found, "the JSON in the prose")
    raise _Skip("the model called no tool and wrote no JSON")


def _from_prose(schema: type[T], answer: AIMessage) -> T:
    found = json_objects_in(_text(answer))
    if not found:
        raise _Skip("the model's answer held no JSON")
    return _one_answer(schema, found, "the JSON answer")


def _one_answer(schema: type[T], found: list[dict[str, Any]], how: str) -> T:
    """The answer of a prose answer that holds exactly one JSON object (said once or repeated
    alike), validated whole. Prose holding two different objects (an example, then the
    answer; two drafts) is ambiguous and never read by a guess at which one was meant, even
    when only one of them fits the schema."""
    distinct: list[dict[str, Any]] = []
    for data in found:
        if data not in distinct:
            distinct.append(data)
    if len(distinct) > 1:
        raise _Skip(f"{how} held {len(distinct)} different JSON objects")
    return _validated(schema, distinct[0], how)


def _text(message: AIMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if isinstance(b, dict))


async def _ask(
    model: BaseChatModel, rung: Rung, schema: type[T], messages: Sequence[BaseMessage]
) -> T:
    tool = schema.__name__
    try:
        if rung is Rung.FORCED_TOOL:
            bound = model.bind_tools([schema], tool_choice=tool)
            answer = _read(await call_model_folded(bound, list(messages), INTERNAL))
            return _from_tool_call(schema, answer, tool)
        if rung is Rung.AUTO_TOOL:
            note = f"Answer by calling the tool `{tool}` once, with your whole answer as arguments."
            bound = model.bind_tools([schema], tool_choice="auto")
            answer = _read(await call_model_folded(bound, _with_note(messages, note), INTERNAL))
            return _from_tool_call(schema, answer, tool)
        runnable: Any = _json_mode(model) if rung is Rung.JSON_MODE else model
        prose = await call_model_folded(
            runnable, _with_note(messages, _json_note(schema)), INTERNAL
        )
        return _from_prose(schema, _read(prose))
    except _Skip:
        raise
    except Exception as exc:
        refused = refused_feature(exc)
        if refused is None:
            raise
        raise _Skip(f"the provider does not support {refused.value} here", refused) from exc


def _next_rung(rung: Rung, refused: Refused | None) -> Rung | None:
    if refused is Refused.TOOLS:
        return Rung.JSON_MODE  # both tool rungs need tools
    return Rung(rung + 1) if rung < Rung.PROSE_JSON else None


def _first_rung(endpoint: Endpoint) -> Rung:
    base_url, name = endpoint
    default = Rung.FORCED_TOOL if forced_tool_choice_supported(base_url, name) else Rung.AUTO_TOOL
    return MEMO.start(endpoint, default)


async def structured_call(
    model: BaseChatModel, schema: type[T], messages: Sequence[BaseMessage], *, name: str
) -> T | NoAnswer:
    """The model's answer to ``messages`` as a ``schema`` instance, or :class:`NoAnswer`.

    ``name`` names the step in the log (``route``, ``critic``). The endpoint's memo moves to
    the first rung it did not refuse, so the next call skips only what it cannot do."""
    endpoint = endpoint_of(model)
    rung: Rung | None = _first_rung(endpoint)
    accepted: Rung | None = None
    reason = "the model gave no answer"
    while rung is not None:
        try:
            result = await _ask(model, rung, schema, messages)
        except _Skip as skip:
            reason = skip.reason
            if skip.outcome is not None:
                logger.warning(
                    "structured answer marked",
                    extra={"step": name, "rung": rung.name, "outcome": skip.outcome},
                )
                return NoAnswer(reason, skip.outcome, skip.text)
            if skip.refused is None and accepted is None:
                accepted = rung
            logger.info(
                "structured answer not usable",
                extra={"step": name, "rung": rung.name, "reason": reason},
            )
            rung = _next_rung(rung, skip.refused)
            continue
        MEMO.remember(endpoint, accepted if accepted is not None else rung)
        return result
    if accepted is not None:
        MEMO.remember(endpoint, accepted)
    logger.warning("no structured answer", extra={"step": name, "reason": reason})
    return NoAnswer(reason)
