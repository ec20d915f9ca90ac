"""A model per role, for every profile and the runtime.

The settings' ``roles`` section may give a role a model of its own (a small or local one),
each with the provider section's keys ``name``, ``model``, ``base_url`` and ``api_key``:

- ``router``: reads a question before the work starts (paper-pilot's router);
- ``critic``: judges a draft (paper-pilot's critic);
- ``structured``: the other calls that answer in a schema rather than in prose (paper-pilot's
  plan, replan, ReAct steps and rewrite; atom-developer's request check);
- ``summary``: every summary the app makes (the summary of a conversation's older turns, by
  hand or automatic).

The guarantee, for any combination of roles set, unset and failing: a call of a role that is
not set asks the turn's model; a call of a role that is set asks the role's model until that
model fails once (it cannot be built, reached, or answer usably, and the call then asks the
turn's model); from then on, in that turn, the
role's calls ask the turn's model, and the failure is said exactly once per role, in one
sentence. Every call's model is noted by step, in call order, so a trace names the model each
call really asked.

What lives here is the generic part (which model a role's call asks, the fallback, the
sentence, the record of the models asked); a profile keeps only its own wiring (which of its
steps is which role, and where its sentence is shown).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model

logger = logging.getLogger(__name__)

ROLES: tuple[str, ...] = ("router", "critic", "structured", "summary")
"""Every role a model can be set for (the settings' ``roles`` section has one key each)."""
ROLE_KEYS: tuple[str, ...] = ("name", "model", "base_url", "api_key")
"""A role's keys: the provider section's."""
_CONTEXT_KEY = "role_models"
"""Where a turn keeps its :class:`RoleCalls` (``TurnContext.extra``)."""

T = TypeVar("T")

_HANDLES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, ChatModelHandle]] = (
    weakref.WeakKeyDictionary()
)
"""Role models built, per event loop (a network model's client belongs to its loop, and goes
with it)."""


def model_label(model: BaseChatModel) -> str:
    """The model's name as its provider knows it (its class name, when it has none)."""
    for name in ("model_name", "model"):
        value = getattr(model, name, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def role_config(settings: Mapping[str, Any], role: str) -> dict[str, Any] | None:
    """The role's provider keys, when the settings give it a model of its own (a ``name``,
    ``model`` or ``base_url``; a key alone sets nothing)."""
    given = (settings.get("roles") or {}).get(role)
    if not isinstance(given, Mapping) or not any(given.get(k) for k in ("name", "model", "base_url")):  # fmt: skip
        return None
    return {k: given.get(k) for k in ROLE_KEYS}


async def role_handle(config: Mapping[str, Any]) -> ChatModelHandle:
    """The role's model, built once per event loop and configuration (raises what building
    it raises: a missing key, an unknown preset). Built in a thread: a build makes HTTP
    clients (and may import the provider's stack), which would stall the loop's turn."""
    built = _HANDLES.setdefault(asyncio.get_running_loop(), {})
    key = json.dumps(dict(config), sort_keys=True, default=str)
    if key not in built:
        api_key = config.get("api_key")
        provider = ProviderConfig(
            provider=str(config.get("name") or "auto"),
            model=str(config.get("model") or ""),
            base_url=str(config["base_url"]) if config.get("base_url") else None,
            api_key=SecretStr(str(api_key)) if api_key else None,
        )
        handle = await asyncio.to_thread(make_chat_model, provider)
        built.setdefault(key, handle)  # a call that raced this one built it first: keep that
    return built[key]


def fallback_sentence(role: str, exc: BaseException) -> str:
    """The one sentence that says a role's model failed and the turn's model answers."""
    reason = " ".join(str(exc).split())[:160] or type(exc).__name__
    return f"the {role} model failed ({reason}): the turn's model answers instead"


class RoleAnswerUnusable(Exception):
    """A role's model answered, but not usably (its reason is the message)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """One call: its step, the model it asked (its label), and when (``perf_counter``)."""

    step: str
    model: str
    at: float


Say = Callable[[str, str], None]
"""How a role's fallback is said: ``(step, sentence)``, the step whose call found it failed."""


@dataclass
class RoleCalls:
    """The role models of one turn (or one summary): which model each role's call asks, the
    roles whose model failed (asked no more), and the models asked, by step, in call order.

    ``settings`` holds the ``roles`` section; ``turn_model`` answers every role not set and
    every role whose model failed; ``say`` tells the user of a fallback (once per role).
    """

    settings: Mapping[str, Any]
    turn_model: BaseChatModel
    say: Say = field(default=lambda step, sentence: None)
    failed: set[str] = field(default_factory=set)
    said: list[str] = field(default_factory=list)
    """The fallback sentences said, in order (at most one per role)."""
    said_at: list[float] = field(default_factory=list)
    """When each of :attr:`said` was said (``perf_counter``)."""
    asked: list[Asked] = field(default_factory=list)
    """Every call's step and model, in call order."""

    async def model_for(self, role: str | None, step: str = "") -> tuple[BaseChatModel, str | None]:
        """The model a call of ``role`` (by ``step``) asks now, and the role whose model it is
        (``None``: the turn's model)."""
        config = role_config(self.settings, role) if role else None
        if role is None or config is None or role in self.failed:
            return self.turn_model, None
        try:
            return (await role_handle(config)).model, role
        except Exception as exc:  # noqa: BLE001 (a role model that cannot be built: the turn's model answers)
            self.fail(role, exc, step)
            return self.turn_model, None

    def fail(self, role: str, exc: BaseException, step: str = "") -> None:
        """Ask ``role``'s model no more, and say so once (on ``step``'s line)."""
        if role in self.failed:
            return
        self.failed.add(role)
        sentence = fallback_sentence(role, exc)
        logger.warning("role model failed", extra={"role": role, "error": sentence})
        self.said.append(sentence)
        self.said_at.append(time.perf_counter())
        self.say(step, sentence)

    def note(self, step: str, model: BaseChatModel) -> None:
        """Record that ``step`` asked ``model`` (now)."""
        self.asked.append(Asked(step, model_label(model), time.perf_counter()))

    def models_since(self, started: float) -> list[str]:
        """The models of the calls made since ``started`` (a ``time.perf_counter()`` reading
        taken when a stage began), each named once, in call order."""
        return list(dict.fromkeys(a.model for a in self.asked if a.at >= started))

    async def call(
        self,
        role: str | None,
        step: str,
        ask: Callable[[BaseChatModel], Awaitable[T]],
        unusable: Callable[[T], str | None] | None = None,
    ) -> T:
        """``ask(model)`` of the role's model, or of the turn's model when the role is not set
        or its model fails (then said once): it raises, or gives an answer ``unusable`` finds
        a reason against (a structured call's "no answer"). A failure of the turn's model, or
        its unusable answer, is the caller's."""
        model, used_role = await self.model_for(role, step)
        if used_role is not None:
            try:
                answer = await ask(model)
                reason = unusable(answer) if unusable is not None else None
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 (the role's model failed: the turn's answers)
                self.fail(used_role, exc, step)
            else:
                self.note(step, model)
                if reason is None:
                    return answer
                self.fail(used_role, RoleAnswerUnusable(f"no usable answer: {reason}"), step)
        self.note(step, self.turn_model)
        return await ask(self.turn_model)

    def fallbacks_since(self, started: float) -> list[str]:
        """The fallback sentences said since ``started``, in order."""
        return [s for s, at in zip(self.said, self.said_at, strict=True) if at >= started]

    def models_of(self, step: str) -> list[str]:
        """The models ``step``'s calls asked, in call order."""
        return [asked.model for asked in self.asked if asked.step == step]


def turn_role_calls(context: Any, say: Say) -> RoleCalls:
    """The role calls of the turn ``context`` (a ``TurnContext``: its ``settings``, ``model``
    and ``extra``), made on first use; ``say`` is used only when they are made."""
    calls = context.extra.get(_CONTEXT_KEY)
    if not isinstance(calls, RoleCalls):
        calls = RoleCalls(context.settings, context.model, say)
        context.extra[_CONTEXT_KEY] = calls
    return calls
