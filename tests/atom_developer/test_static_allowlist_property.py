"""Level 1 as an allowlist, on generated programs that mix allowed and forbidden constructs.

The guarantee for the whole class: every program level 1 passes imports only allowlisted
modules and their listed names, names only allowlisted builtins (or names the module itself
binds), reads only allowlisted attributes, holds no double underscore in any identifier,
keyword, string or bytes literal (f-string parts included), and has no class, decorator or class
pattern. The oracle below walks the syntax tree on its own; it shares no code with the checker.
"""

from __future__ import annotations

import ast
import builtins

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.validation.static_check import (
    ALLOWED_ATTRIBUTES,
    ALLOWED_BUILTINS,
    MODULE_NAMES,
    check_static,
)

BUILTINS = sorted(set(dir(builtins)) - {"True", "False", "None"})
NAMES = st.sampled_from([*BUILTINS, "items", "x", "re", "typing", "json", "os", "sys", "E"]) | (
    st.from_regex(r"[a-z_]{1,6}", fullmatch=True)
)
FORBIDDEN_ATTRIBUTES = ["__class__", "__globals__", "__match_args__", "format", "format_map"]
FORBIDDEN_ATTRIBUTES += ["sys", "gi_frame", "f_back", "update_wrapper", "attrgetter", "mro"]
ATTRIBUTES = st.sampled_from(
    [*sorted(ALLOWED_ATTRIBUTES)[:60], *FORBIDDEN_ATTRIBUTES]
) | st.from_regex(r"[a-z_]{1,8}", fullmatch=True)
MODULES = st.sampled_from([*MODULE_NAMES, "os", "functools", "enum", "operator", "string"])
LITERALS = st.text(max_size=12).map(repr) | st.binary(max_size=12).map(repr)


@st.composite
def statements(draw: st.DrawFn) -> str:
    """One statement of a function body, allowed or not."""
    name, attr, literal = draw(NAMES), draw(ATTRIBUTES), draw(LITERALS)
    shapes = [
        f"x = {name}",
        f"x = {name}({literal})",
        f"x = items.{attr}",
        f"x = {name}.{attr}",
        f"x = {literal}",
        f"x = f'{{items}}{draw(st.text(alphabet='_a{{}}.', max_size=6))}'",
        f"x = dict({name}=1)",
        f"{name} = {literal}",
        f"match items:\n    case {name}({attr}=y):\n        pass",
        "match items:\n    case E(y):\n        pass",
        f"@{name}\ndef inner():\n    pass",
        f"class {name.capitalize() or 'A'}:\n    pass",
        f"def inner({name}):\n    return {name}",
        f"x = [{name} for {name} in items]",
    ]
    return draw(st.sampled_from(shapes))


@st.composite
def programs(draw: st.DrawFn) -> str:
    imports = []
    for module in draw(st.lists(MODULES, max_size=2)):
        if draw(st.booleans()):
            imports.append(f"import {module}")
        else:
            imports.append(f"from {module} import {draw(ATTRIBUTES)}")
    body = "\n".join(draw(st.lists(statements(), min_size=1, max_size=4)))
    inner = "\n".join("    " + line for line in body.splitlines())
    return "\n".join(imports) + f"\n\ndef check_existence(items):\n{inner}\n    return {{}}\n"


def _bound_at_module_level(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _oracle(tree: ast.Module) -> list[str]:
    """What the guarantee forbids, found independently of the checker."""
    found: list[str] = []
    bound = _bound_at_module_level(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name not in MODULE_NAMES]
        elif isinstance(node, ast.ImportFrom):
            allowed = MODULE_NAMES.get(node.module or "", frozenset())
            found += [a.name for a in node.names if node.level or a.name not in allowed]
        elif isinstance(node, ast.Attribute) and node.attr not in ALLOWED_ATTRIBUTES:
            found.append(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
            text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            found += ["literal __"] if "__" in text else []
        elif isinstance(node, ast.ClassDef | ast.MatchClass):
            found.append(type(node).__name__)
        elif isinstance(node, ast.FunctionDef) and node.decorator_list:
            found.append("decorator")
        for value in vars(node).values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and "__" in item and not isinstance(node, ast.Constant):
                    found.append(item)
        names = [node.id] if isinstance(node, ast.Name) else []
        names += [node.arg] if isinstance(node, ast.arg) else []
        found += [
            n for n in names if n in BUILTINS and n not in ALLOWED_BUILTINS and n not in bound
        ]
    return found


@settings(max_examples=200, deadline=None)
@given(programs())
def test_what_level_1_passes_names_only_what_the_allowlists_hold(code: str) -> None:
    result = check_static(code)
    if result.errors:
        return
    assert _oracle(ast.parse(code)) == [], code
