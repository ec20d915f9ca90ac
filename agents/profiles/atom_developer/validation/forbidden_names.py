"""Level 1's names: which identifiers and attribute names an atom may not use at all.

An attribute is read by name wherever the syntax names one: ``x.sys``, a class pattern's
keyword (``case object(sys=s)``), an import. Level 1 cannot know what ``x`` holds (``m =
typing; m.sys``), so it refuses the names themselves: the interpreter's import and process
machinery by any name, and, as attribute names, every name under which a module outside the
allowlist hangs off a module the atom can reach (computed from the allowlisted modules
themselves), plus the helpers that evaluate strings as code (``typing.get_type_hints``
evaluates string annotations). String keys of subscripts and mapping patterns may not name the
machinery either.
"""

from __future__ import annotations

import ast
import importlib
import re
import types
from collections.abc import Iterator

UNREACHABLE = frozenset(
    {"sys", "posix", "nt", "os", "_imp", "_frozen_importlib", "_frozen_importlib_external"}
    | {"_posixsubprocess", "builtins", "importlib", "subprocess", "_os", "_sys", "_io"}
)
"""The interpreter's import and process machinery: refused as any name, attribute or key."""

CODE_BUILDERS = frozenset(
    {"get_type_hints", "ForwardRef", "_eval_type", "make_dataclass", "singledispatch"}
    | {"singledispatchmethod", "attrgetter", "methodcaller", "Formatter"}
)
"""Helpers of allowlisted modules that evaluate strings as code or read attributes by name."""

LEGITIMATE = frozenset({"copy", "abc"})
"""Module names that are also everyday attributes (``d.copy()``, ``collections.abc``); the
modules behind them reach nothing further by a name that is allowed."""

_DUNDER = re.compile(r"^__\w+__$")


def modules_reachable(allowed: frozenset[str]) -> frozenset[str]:
    """Every attribute name that holds a module outside ``allowed`` on a module reachable from
    the allowlisted ones, attribute after attribute."""
    todo = [importlib.import_module(name) for name in sorted(allowed)]
    seen: set[int] = set()
    names: set[str] = set()
    while todo:
        module = todo.pop()
        if id(module) in seen:
            continue
        seen.add(id(module))
        for name, value in vars(module).items():
            if isinstance(value, types.ModuleType):
                if value.__name__.split(".")[0] not in allowed:
                    names.add(name)
                todo.append(value)
    return frozenset(names)


def attribute_names(allowed: frozenset[str]) -> frozenset[str]:
    """The attribute names an atom may not read."""
    return (UNREACHABLE | CODE_BUILDERS | modules_reachable(allowed)) - LEGITIMATE


def _identifiers(node: ast.AST) -> Iterator[str]:
    """The names a node binds or reads (its identifier fields), dotted ones split."""
    if isinstance(node, ast.Constant):
        return
    for field, value in ast.iter_fields(node):
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and field != "type_comment":
                yield from item.split(".")


def _keys(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Subscript):
        return [node.slice]
    if isinstance(node, ast.MatchMapping):
        return list(node.keys)
    return []


def name_errors(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """Each node that names the interpreter's machinery, as a name or a key, with why."""
    for node in ast.walk(tree):
        for name in _identifiers(node):
            if name in UNREACHABLE:
                yield node, f"the name '{name}' is forbidden (a sandbox escape)"
        for key in _keys(node):
            text = key.value if isinstance(key, ast.Constant) else None
            if isinstance(text, str) and (text in UNREACHABLE or _DUNDER.match(text)):
                yield node, f"the key {text!r} is forbidden (a sandbox escape)"
