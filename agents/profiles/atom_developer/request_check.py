"""Whether a message asks for an atom, and what earlier turns of the branch already hold.

A message with a sample or code of its own is atom work. For one without, the model decides,
from the message in any language (a structured answer; the offline demo's answer is in
:mod:`.offline`). A follow-up ("also extract the host", "make it handle 503") is drafted from
the branch's last draft and sample.

The check runs on the ``router`` role's model when the settings give it one
(:mod:`agents.role_models`), the turn's model otherwise or once that one fails (said once on
the ``read_request`` stage line). It is the router's kind of call, not the ``structured``
role's: like paper-pilot's router it reads the user's message before any work starts and only
decides which way the turn goes (draft, or a short guide), a small classification a small
fast model does well; the ``structured`` role is for the stages that do the work in a schema
(plans, steps, rewrites).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from agents.graph import emit_status
from agents.profile import TurnContext
from agents.profiles.atom_developer.request import last_block, read_request
from agents.role_models import turn_role_calls
from agents.structured import NoAnswer, structured_call

_CODE = frozenset({"python", "py", "python3"})
_SPEC = frozenset({"yaml", "yml"})
CHECK_PROMPT = (
    "Decide whether the user's message asks for log-parsing atoms: to write them, or to change "
    "or fix the atoms drafted earlier in this conversation (pull something out of log lines, "
    "match, parse or check them). The message may be in any language. A greeting, thanks or "
    "an unrelated question asks for none."
)


CHECK_ROLE = "router"
"""The role whose model checks a message with no sample (see the module's docstring)."""


def _no_answer_reason(answer: AtomRequestCheck | NoAnswer) -> str | None:
    return answer.reason if isinstance(answer, NoAnswer) else None


def _say(step: str, sentence: str) -> None:
    emit_status("read_request", sentence, "error")


class AtomRequestCheck(BaseModel):
    """Whether the user's message asks for log-parsing atoms (new, changed or fixed)."""

    asks_for_atom: bool = Field(description="true when the message asks for atom work")


@dataclass(frozen=True, slots=True)
class EarlierWork:
    """The branch's last atom work before this message: what was asked, on which sample, and
    the code and spec the reply ended with."""

    intent: str = ""
    sample: str = ""
    code: str = ""
    spec: str = ""

    @property
    def found(self) -> bool:
        return bool(self.code or self.sample)


def _text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content if isinstance(b, dict))


def earlier_work(messages: list[AnyMessage], project_root: Path | None) -> EarlierWork:
    """The last draft (code and spec of the newest reply holding them) and the sample and
    intent of the newest user message before it that gave a sample."""
    code = spec = ""
    for i in range(len(messages) - 1, -1, -1):
        message = messages[i]
        if not code and isinstance(message, AIMessage):
            code, spec = last_block(_text(message), _CODE), last_block(_text(message), _SPEC)
        elif isinstance(message, HumanMessage):
            request = read_request(_text(message), project_root)
            if request.sample:
                return EarlierWork(request.intent, request.sample, code, spec)
    return EarlierWork(code=code, spec=spec)


async def asks_for_atom(context: TurnContext, intent: str, earlier: EarlierWork) -> bool | NoAnswer:
    """Whether ``intent`` (a message with no sample or code of its own) asks for an atom."""
    told = f"Message: {intent}"
    if earlier.found:
        told += f"\nEarlier in this conversation the user asked: {earlier.intent or '(code only)'}"
    system = f"{context.system_prompt.strip()}\n\n{CHECK_PROMPT}"
    messages = [SystemMessage(system), HumanMessage(told)]

    async def ask(model: BaseChatModel) -> AtomRequestCheck | NoAnswer:
        return await structured_call(model, AtomRequestCheck, messages, name="read_request")

    calls = turn_role_calls(context, _say)
    answer = await calls.call(CHECK_ROLE, "read_request", ask, _no_answer_reason)
    return answer if isinstance(answer, NoAnswer) else answer.asks_for_atom
