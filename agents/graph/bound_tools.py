"""``model.bind_tools(tools)``, made once per model and tool list and then reused.

Binding turns every tool into its JSON schema (pydantic's schema generation): about 3.5 ms for
a profile's tools on the benchmark machine, paid again on every model call of every turn (a
turn of ten tool rounds paid it ten times). A binding depends on nothing but the model and
the tools, so it is kept: for the last few models (a model switched away from is let go), the
last few tool lists each, matched by the identity of the model and of every tool in order, so
a list with another tool, another order, or a new tool object of the same name binds anew.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

MODELS_KEPT = 4
"""Models whose bindings are kept (the model of the open conversation, a role's, a few
switched between)."""

LISTS_KEPT = 4
"""Tool lists kept per model (a profile's tools, with and without a turn's extra tools)."""

_bindings: OrderedDict[int, tuple[Any, list[tuple[tuple[Any, ...], Any]]]] = OrderedDict()
"""id(model) -> (the model, held so its id stays its own; [(tools, binding), ...])."""
_lock = threading.Lock()


def bind_tools_once(model: Any, tools: Sequence[Any]) -> Any:
    """``model.bind_tools(list(tools))``, or the binding made for this model and these tools
    before."""
    offered = tuple(tools)
    with _lock:
        kept = _bindings.get(id(model))
        if kept is not None and kept[0] is model:
            _bindings.move_to_end(id(model))
            for listed, binding in kept[1]:
                if _same(listed, offered):
                    return binding
    binding = model.bind_tools(list(offered))
    with _lock:
        kept = _bindings.get(id(model))
        if kept is None or kept[0] is not model:
            kept = (model, [])
            _bindings[id(model)] = kept
        _bindings.move_to_end(id(model))
        kept[1].insert(0, (offered, binding))
        del kept[1][LISTS_KEPT:]
        while len(_bindings) > MODELS_KEPT:
            _bindings.popitem(last=False)
    return binding


def _same(listed: tuple[Any, ...], offered: tuple[Any, ...]) -> bool:
    return len(listed) == len(offered) and all(a is b for a, b in zip(listed, offered, strict=True))
