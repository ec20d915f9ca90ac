"""A model per role: the settings' ``roles`` section may put the router, the critic and the
other structured stages (plan, replan, ReAct steps, the retry's rewrite) on a model of their
own (a small or local one), each with the provider keys ``name``, ``model``, ``base_url`` and
``api_key``; a role not set uses the turn's model, and so does the synthesis always.

A role model that fails (it cannot be built, reached or answer) is not tried again in that
turn: the stage asks the turn's model instead, and the tool pane says so once per role. The
trace names the model of each stage's calls.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from agents.graph import emit_status
from agents.profile import TurnContext
from agents.profiles.paper_pilot.trace_view import model_label
from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model

logger = logging.getLogger(__name__)

ROLE_OF_STEP: Mapping[str, str] = {
    "route": "router",
    "critic": "critic",
    "plan": "structured",
    "replan": "structured",
    "react": "structured",
    "retry_refine": "structured",
}
"""Which role answers each stage that asks for a structured answer."""
_FAILED = "paper_pilot.role_failed"
_USED = "paper_pilot.models"
_HANDLES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, ChatModelHandle]] = (
    weakref.WeakKeyDictionary()
)
"""Role models built, per event loop (a network model's client belongs to its loop, and goes
with it)."""


def role_config(settings: Mapping[str, Any], role: str) -> dict[str, Any] | None:
    """The role's provider keys, when the settings give it a model of its own."""
    given = (settings.get("roles") or {}).get(role)
    if not isinstance(given, Mapping) or not any(given.get(k) for k in ("name", "model", "base_url")):  # fmt: skip
        return None
    return {k: given.get(k) for k in ("name", "model", "base_url", "api_key")}


def _handle(config: Mapping[str, Any]) -> ChatModelHandle:
    built = _HANDLES.setdefault(asyncio.get_running_loop(), {})
    key = json.dumps(dict(config), sort_keys=True, default=str)
    if key not in built:
        api_key = config.get("api_key")
        built[key] = make_chat_model(
            ProviderConfig(
                provider=str(config.get("name") or "auto"),
                model=str(config.get("model") or ""),
                base_url=str(config["base_url"]) if config.get("base_url") else None,
                api_key=SecretStr(str(api_key)) if api_key else None,
            )
        )
    return built[key]


def stage_model(context: TurnContext, step: str) -> tuple[BaseChatModel, str | None]:
    """The model ``step`` asks and its role (``None``: the turn's model)."""
    role = ROLE_OF_STEP.get(step)
    config = role_config(context.settings, role) if role else None
    if role is None or config is None or role in context.extra.get(_FAILED, set()):
        return context.model, None
    try:
        return _handle(config).model, role
    except Exception as exc:  # noqa: BLE001 (a role model that cannot be built: the turn's model answers)
        role_failed(context, role, exc)
        return context.model, None


def role_failed(context: TurnContext, role: str, exc: BaseException) -> None:
    """Stop asking ``role``'s model this turn, and say so once."""
    failed: set[str] = context.extra.setdefault(_FAILED, set())
    if role in failed:
        return
    failed.add(role)
    reason = " ".join(str(exc).split())[:160] or type(exc).__name__
    logger.warning("role model failed", extra={"role": role, "error": reason})
    emit_status("route", f"the {role} model failed ({reason}): the turn's model answers instead", "error")  # fmt: skip


def note_model(context: TurnContext, step: str, model: BaseChatModel) -> None:
    context.extra.setdefault(_USED, {})[step] = model_label(model)


def models_used(context: TurnContext) -> Mapping[str, str]:
    """The model each stage last asked, by stage."""
    used = context.extra.get(_USED)
    return used if isinstance(used, dict) else {}
