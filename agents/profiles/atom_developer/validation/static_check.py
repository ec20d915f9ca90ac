"""Level 1: the atom's syntax tree, checked without ever running the code.

The check refuses what a pure, stateless text function never needs and what could escape a
sandbox: builtins that do I/O or build code (flagged when named at all, so ``f = eval`` is
caught too), imports outside an allowlist, dunder names and attributes, frame and code object
walks, attribute chains from an allowed module to one that is not (``typing.sys``), format
strings that read attributes, module-level state, classes and async functions. The three known
atoms must keep their signatures and their defining calls.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
import string
import types
from dataclasses import dataclass, field

from agents.profiles.atom_developer.validation.forbidden_names import (
    UNREACHABLE,
    attribute_names,
    name_errors,
)

ALLOWED_MODULES = frozenset(
    {"re", "typing", "collections", "dataclasses", "itertools", "functools", "math", "string"}
    | {"enum", "json", "datetime", "fnmatch"}
)
FORBIDDEN_BUILTINS = frozenset(
    {"open", "print", "eval", "exec", "compile", "__import__", "input", "globals", "locals"}
    | {"vars", "getattr", "setattr", "delattr", "breakpoint", "help", "exit", "quit"}
    | {"memoryview", "type", "super"}
)
ESCAPE_ATTRIBUTES = frozenset(
    {"gi_frame", "gi_code", "f_globals", "f_locals", "f_builtins", "f_back", "f_code"}
    | {"tb_frame", "tb_next", "cr_frame", "cr_code", "ag_frame", "ag_code", "co_code"}
    | {"co_consts", "mro"}
)
ATOM_NAMES = ("extract_context", "validate_logic", "check_existence")
SIGNATURES: dict[str, tuple[tuple[str, ...], tuple[object, ...]]] = {
    "extract_context": (("text", "source_file"), ()),
    "validate_logic": (
        ("text", "pattern", "parsed_fields", "default_match", "regex_mode"),
        (None, "contains", "search"),
    ),
    "check_existence": (("items",), ()),
}
_DUNDER = re.compile(r"^__\w+__$")
_ALLOWED_TEXT = ", ".join(sorted(ALLOWED_MODULES))
_FORBIDDEN_ATTRIBUTES = attribute_names(ALLOWED_MODULES) - UNREACHABLE
_FORBIDDEN_OBJECTS = {
    id(getattr(builtins, name)): name for name in FORBIDDEN_BUILTINS if hasattr(builtins, name)
}


@dataclass
class StaticResult:
    """What level 1 found: errors, warnings, and which known atoms the code defines."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    atoms: tuple[str, ...] = ()


def _allowed(module: str) -> bool:
    return module.split(".")[0] in ALLOWED_MODULES


def _module(name: str) -> types.ModuleType | None:
    """The allowlisted stdlib module ``name``, imported here (never the atom's code)."""
    try:
        return importlib.import_module(name) if _allowed(name) else None
    except ImportError:
        return None


def _escape(obj: object, dotted: str) -> str | None:
    """Why reaching ``obj`` through ``dotted`` escapes the allowlist, or ``None``."""
    if isinstance(obj, types.ModuleType) and not _allowed(obj.__name__):
        return f"'{dotted}' reaches module '{obj.__name__}' outside the allowlist"
    name = _FORBIDDEN_OBJECTS.get(id(obj))
    if name is not None:
        return f"'{dotted}' reaches the forbidden builtin '{name}'"
    return None


def _attribute_rule(name: str) -> str | None:
    """Why reading the attribute ``name`` of any object is refused, or ``None``."""
    if _DUNDER.match(name):
        return "dunder attribute (a sandbox escape)"
    if name in ESCAPE_ATTRIBUTES:
        return "it walks frames or code (a sandbox escape)"
    if name in _FORBIDDEN_ATTRIBUTES or name in UNREACHABLE:
        return "it can reach a module outside the allowlist or evaluate text (a sandbox escape)"
    return None


class _Checker(ast.NodeVisitor):
    def __init__(self, result: StaticResult) -> None:
        self.result = result
        self.modules: dict[str, str] = {}  # a bound name -> the module it names

    def error(self, node: ast.AST, message: str) -> None:
        self.result.errors.append(f"line {getattr(node, 'lineno', '?')}: {message}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _allowed(alias.name):
                self.error(node, f"forbidden import '{alias.name}' {_why_import()}")
            elif alias.asname:
                self.modules[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                self.modules[top] = top

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not _allowed(module):
            self.error(node, f"forbidden import '{module or '.'}' {_why_import()}")
            return
        parent = _module(module)
        for alias in node.names:
            if _DUNDER.match(alias.name) or alias.name == "Formatter":
                self.error(node, f"forbidden import '{alias.name}' from '{module}'")
                continue
            if alias.name in _FORBIDDEN_ATTRIBUTES:
                self.error(node, f"forbidden import '{alias.name}' from '{module}'")
                continue
            found = getattr(parent, alias.name, None) if parent else None
            why = _escape(found, f"{module}.{alias.name}")
            if why:
                self.error(node, f"forbidden import '{alias.name}' from '{module}' ({why})")
            elif isinstance(found, types.ModuleType):
                self.modules[alias.asname or alias.name] = found.__name__

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in FORBIDDEN_BUILTINS:
            self.error(node, f"forbidden builtin '{node.id}' (atoms do no I/O and build no code)")
        elif _DUNDER.match(node.id):
            self.error(node, f"dunder name '{node.id}' (a sandbox escape)")
        elif node.id == "Formatter":
            self.error(node, "string.Formatter is forbidden (its fields read attributes)")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _DUNDER.match(node.attr):
            self.error(node, f"dunder attribute '.{node.attr}' (a sandbox escape)")
        elif node.attr in ESCAPE_ATTRIBUTES:
            self.error(node, f"attribute '.{node.attr}' walks frames or code (a sandbox escape)")
        elif node.attr == "Formatter":
            self.error(node, "string.Formatter is forbidden (its fields read attributes)")
        elif node.attr in _FORBIDDEN_ATTRIBUTES:
            self.error(node, f"attribute '.{node.attr}': {_attribute_rule(node.attr)}")
        else:
            self._module_walk(node)
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:
            why = _attribute_rule(name)
            if why:
                self.error(node, f"class pattern reads the attribute '{name}': {why}")
        self.generic_visit(node)

    def _module_walk(self, node: ast.Attribute) -> None:
        chain: list[str] = []
        current: ast.expr = node
        while isinstance(current, ast.Attribute):
            chain.insert(0, current.attr)
            current = current.value
        if not isinstance(current, ast.Name) or current.id not in self.modules:
            return
        obj: object = _module(self.modules[current.id])
        dotted = current.id
        for attr in chain:
            if not isinstance(obj, types.ModuleType) or _DUNDER.match(attr):
                return
            obj = getattr(obj, attr, None)
            dotted += f".{attr}"
            why = _escape(obj, dotted)
            if why:
                self.error(node, f"module attribute walk: {why}")
                return

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("format", "format_map"):
            receiver = func.value
            if not (isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)):
                self.error(node, f".{func.attr}() on a string that is not a literal")
            elif _format_walks(receiver.value):
                self.error(node, f"format string {receiver.value[:40]!r} reads attributes or items")
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.error(node, "'global' keeps state between calls (atoms are stateless)")

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.error(node, "'nonlocal' keeps state between calls (atoms are stateless)")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.error(node, f"class '{node.name}': atoms are plain functions, no classes")
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.error(node, f"async function '{node.name}': atoms are plain functions")
        self.generic_visit(node)


def _why_import() -> str:
    return f"(atoms do no I/O; allowed: {_ALLOWED_TEXT})"


def _format_walks(template: str) -> bool:
    """Whether a format string has a field that reads an attribute or an item (or is broken)."""
    try:
        fields = [name for _, name, spec, _ in string.Formatter().parse(template) if name]
        specs = [spec for _, name, spec, _ in string.Formatter().parse(template) if spec]
    except ValueError:
        return True
    return any("." in text or "[" in text for text in fields + specs)


def _constant(node: ast.expr) -> bool:
    """Whether a module-level value is a constant: literals, containers of them, re.compile."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_constant(item) for item in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _constant(k) for k in node.keys) and all(
            _constant(v) for v in node.values
        )
    if isinstance(node, ast.UnaryOp | ast.BinOp):
        return all(
            _constant(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
        )
    if isinstance(node, ast.Call):
        name = ast.unparse(node.func)
        args_ok = all(_constant(a) for a in node.args) and all(
            _constant(k.value) for k in node.keywords
        )
        return name in ("re.compile", "frozenset", "tuple") and args_ok
    return False


def _module_level(tree: ast.Module, result: StaticResult) -> list[ast.FunctionDef]:
    functions: list[ast.FunctionDef] = []
    for index, node in enumerate(tree.body):
        if isinstance(node, ast.FunctionDef):
            functions.append(node)
        elif isinstance(node, ast.Import | ast.ImportFrom | ast.ClassDef | ast.AsyncFunctionDef):
            continue  # checked by the visitor
        elif index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value and _constant(node.value):
            if isinstance(node.value, ast.List | ast.Dict | ast.Set):
                result.warnings.append(
                    f"line {node.lineno}: a mutable module constant; a tuple or frozenset is safer"
                )
        else:
            result.errors.append(
                f"line {node.lineno}: module level holds only imports, constants and functions"
                " (atoms are stateless)"
            )
    return functions


def _reached_calls(fn: ast.FunctionDef, functions: dict[str, ast.FunctionDef]) -> list[ast.Call]:
    """Every call in ``fn`` and in the module's functions it calls, transitively."""
    calls: list[ast.Call] = []
    seen = {fn.name}
    todo = [fn]
    while todo:
        found = [n for n in ast.walk(todo.pop()) if isinstance(n, ast.Call)]
        calls += found
        for call in found:
            name = call.func.id if isinstance(call.func, ast.Name) else None
            if name in functions and name not in seen:
                seen.add(name)
                todo.append(functions[name])
    return calls


def _check_atom(
    fn: ast.FunctionDef, result: StaticResult, functions: dict[str, ast.FunctionDef]
) -> None:
    names, defaults = SIGNATURES[fn.name]
    args = fn.args
    got_names = tuple(a.arg for a in [*args.posonlyargs, *args.args])
    got_defaults = tuple(d.value if isinstance(d, ast.Constant) else d for d in args.defaults)
    if (
        got_names != names
        or got_defaults != defaults
        or args.vararg
        or args.kwarg
        or args.kwonlyargs
    ):
        want = [*names[: len(names) - len(defaults)]]
        want += [
            f"{n}={d!r}" for n, d in zip(names[len(names) - len(defaults) :], defaults, strict=True)
        ]
        result.errors.append(
            f"line {fn.lineno}: {fn.name} must have the signature ({', '.join(want)}),"
            f" got ({ast.unparse(args)})"
        )
    calls = _reached_calls(fn, functions)
    if fn.name == "extract_context" and not any(
        isinstance(c.func, ast.Name) and c.func.id == "str" for c in calls
    ):
        result.errors.append("extract_context must cast every value with str(...) (the type lock)")
    if fn.name == "validate_logic":
        attrs = {c.func.attr for c in calls if isinstance(c.func, ast.Attribute)}
        missing = [f"re.{name}" for name in ("match", "search") if name not in attrs]
        if missing:
            result.errors.append(
                f"validate_logic must use re.match for regex_mode='match' and re.search for"
                f" 'search' (missing: {', '.join(missing)})"
            )
    for arg in [*args.posonlyargs, *args.args]:
        if arg.annotation is None:
            result.warnings.append(f"{fn.name}: parameter '{arg.arg}' has no type hint")
    if fn.returns is None:
        result.warnings.append(f"{fn.name}: the return value has no type hint")


TOO_DEEP = (
    "the code is nested too deeply or an expression is too long to check (a parser limit);"
    " split it into smaller expressions and functions"
)


def check_static(code: str) -> StaticResult:
    """Level 1 on ``code``: every error and warning found in its syntax tree. Code past a
    parser or checker limit (a 60,000-term expression, thousands of nested brackets) is one
    error, never an exception."""
    try:
        return _check_tree(code)
    except (RecursionError, MemoryError):
        return StaticResult(errors=[TOO_DEEP])


def _check_tree(code: str) -> StaticResult:
    result = StaticResult()
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        result.errors.append(f"syntax error at line {exc.lineno}, column {exc.offset}: {exc.msg}")
        return result
    except ValueError as exc:  # e.g. a NUL byte in the source
        result.errors.append(f"the code does not parse: {exc}")
        return result
    functions = _module_level(tree, result)
    checker = _Checker(result)
    checker.visit(tree)
    for node, message in name_errors(tree):
        checker.error(node, message)
    atoms = [fn for fn in functions if fn.name in SIGNATURES]
    by_name = {fn.name: fn for fn in functions}
    for fn in atoms:
        _check_atom(fn, result, by_name)
    result.atoms = tuple(name for name in ATOM_NAMES if any(fn.name == name for fn in atoms))
    if not result.atoms:
        result.errors.append(
            "no atom found: define extract_context, validate_logic or check_existence"
        )
    return result
