"""Level 1: the atom's syntax tree, checked without ever running the code.

Level 1 is an allowlist and a filter, not the boundary: the sandbox (level 2) is what holds when
a program gets past it. Level 1 passes a program only when

- every import is one of the modules an atom needs (``ALLOWED_MODULES``) and every name taken
  from one is in that module's list (``MODULE_NAMES``);
- every builtin it names is one an atom needs (``ALLOWED_BUILTINS``: no ``getattr``, ``type``,
  ``eval``, ``open``...), under any role: read, assigned, a parameter;
- every attribute it reads is a public method or field of the plain data an atom handles (``str``,
  ``list``, ``dict``, a regex match, a date...) or a listed name of an allowed module
  (``ALLOWED_ATTRIBUTES``), never ``format``/``format_map`` (format fields read attributes);
- no identifier, attribute, keyword or string or bytes literal (f-string parts included) holds a
  double underscore (``__``), so no dunder is named and no attribute name is spelled as data;
- its source holds no character that is not printable but tabs and line ends, so what the user
  reads is what runs (no bidirectional override, zero-width or control character);
- it has no class, no decorator, no class pattern in ``match`` (a class pattern reads
  attributes named by ``__match_args__``), no ``global``/``nonlocal``, no async function, and
  module level holds only imports, constants and functions.

A string built at run time (``"_" * 2``) still gets past a filter of the syntax tree: that is why
the verdict comes from the sandbox. The three known atoms must keep their signatures and their
defining calls.
"""

from __future__ import annotations

import ast
import builtins
import datetime
import importlib
import re
import types
import warnings
from dataclasses import dataclass, field

from agents.profiles.atom_developer.validation.forbidden_names import (
    UNREACHABLE,
    attribute_names,
    name_errors,
)
from agents.profiles.atom_developer.validation.one_line import printable

MODULE_NAMES: dict[str, frozenset[str]] = {
    "re": frozenset(
        {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn"}
        | {"split", "escape", "error", "Pattern", "Match", "NOFLAG", "A", "ASCII", "I"}
        | {"IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "X", "VERBOSE", "U", "UNICODE"}
    ),
    "typing": frozenset(
        {"Any", "AnyStr", "Callable", "Dict", "Final", "FrozenSet", "Iterable", "Iterator"}
        | {"List", "Literal", "Mapping", "Match", "MutableMapping", "Optional", "Pattern"}
        | {"Sequence", "Set", "Tuple", "Union", "cast"}
    ),
    "json": frozenset({"loads", "dumps", "JSONDecodeError"}),
    "datetime": frozenset(
        {"date", "datetime", "time", "timedelta", "timezone", "MINYEAR", "MAXYEAR", "UTC"}
    ),
    "fnmatch": frozenset({"fnmatch", "fnmatchcase", "translate", "filter"}),
}
"""What an atom may import, and which names of each: text matching (``re``, ``fnmatch`` for
wildcards), type hints (``typing``), log lines that hold JSON or timestamps (``json``,
``datetime``). Nothing that reads attributes by name, builds classes or code, or does I/O."""
ALLOWED_MODULES = frozenset(MODULE_NAMES)
ALLOWED_BUILTINS = frozenset(
    {"abs", "all", "any", "ascii", "bin", "bool", "bytes", "chr", "dict", "divmod"}
    | {"enumerate", "filter", "float", "frozenset", "hex", "int", "isinstance", "iter", "len"}
    | {"list", "map", "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed"}
    | {"round", "set", "slice", "sorted", "str", "sum", "tuple", "zip", "Ellipsis"}
    | {"Exception", "ArithmeticError", "IndexError", "KeyError", "LookupError", "OverflowError"}
    | {"RuntimeError", "StopIteration", "TypeError", "UnicodeError", "ValueError"}
    | {"ZeroDivisionError", "NotImplementedError"}
)
"""The builtins an atom may name: plain data, iteration and arithmetic, and exceptions."""
BUILTIN_NAMES = frozenset(dir(builtins)) - {"True", "False", "None"}
FORBIDDEN_BUILTINS = BUILTIN_NAMES - ALLOWED_BUILTINS
"""Every other builtin (``getattr``, ``type``, ``vars``, ``open``, ``eval``, ``__import__``...)."""
DATA_TYPES: tuple[type, ...] = (
    str, bytes, int, float, bool, list, tuple, dict, set, frozenset, range, slice,
    re.Pattern, re.Match, datetime.date, datetime.datetime, datetime.time, datetime.timedelta,
    datetime.timezone,
)  # fmt: skip
"""The plain data an atom handles: the public attributes of these are what it may read."""
REFUSED_ATTRIBUTES = frozenset({"format", "format_map", "mro"})
"""Public attributes of plain data that read attributes named in a string, or walk classes."""
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
_ALLOWED_TEXT = ", ".join(sorted(ALLOWED_MODULES))
_FORBIDDEN_ATTRIBUTES = attribute_names(ALLOWED_MODULES) - UNREACHABLE


def _allowed_attributes() -> frozenset[str]:
    public = {name for kind in DATA_TYPES for name in dir(kind) if not name.startswith("_")}
    public |= {name for names in MODULE_NAMES.values() for name in names}
    return frozenset(public) - REFUSED_ATTRIBUTES - ESCAPE_ATTRIBUTES - _FORBIDDEN_ATTRIBUTES


ALLOWED_ATTRIBUTES = _allowed_attributes()
"""Every attribute name an atom may read, on any object."""
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
    return module in ALLOWED_MODULES


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


def _text_of(node: ast.Constant) -> str | None:
    """A str or bytes literal as text (bytes read as Latin-1), else ``None``."""
    if isinstance(node.value, str):
        return node.value
    if isinstance(node.value, bytes):
        return node.value.decode("latin-1")
    return None


class _Checker(ast.NodeVisitor):
    def __init__(self, result: StaticResult, module_globals: frozenset[str]) -> None:
        self.result = result
        self.module_globals = module_globals  # names bound at module level shadow builtins
        self.modules: dict[str, str] = {}  # a bound name -> the module it names

    def error(self, node: ast.AST, message: str) -> None:
        self.result.errors.append(f"line {getattr(node, 'lineno', '?')}: {message}")

    def generic_visit(self, node: ast.AST) -> None:
        for name in _identifier_fields(node):
            if "__" in name:
                self.error(node, f"the name '{name}' holds '__' (dunder names are sandbox escapes)")
        for name in _names_bound_or_read(node):
            if name in FORBIDDEN_BUILTINS and name not in self.module_globals:
                self.error(node, f"forbidden builtin '{name}' (an atom may name only the builtins for {_WHY_BUILTIN})")  # fmt: skip
        super().generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        text = _text_of(node)
        if text is not None and "__" in text:
            self.error(node, f"the string {text[:40]!r} holds '__' (it could name a dunder attribute)")  # fmt: skip

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _allowed(alias.name):
                self.error(node, f"forbidden import '{alias.name}' {_why_import()}")
            else:
                self.modules[alias.asname or alias.name] = alias.name
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not _allowed(module):
            self.error(node, f"forbidden import '{module or '.'}' {_why_import()}")
            return
        for alias in node.names:
            if alias.name not in MODULE_NAMES[module]:
                allowed = ", ".join(sorted(MODULE_NAMES[module]))
                self.error(node, f"forbidden import '{alias.name}' from '{module}' (allowed: {allowed})")  # fmt: skip
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if "__" in node.attr:
            pass  # the identifier rule names it
        elif node.attr in ESCAPE_ATTRIBUTES:
            self.error(node, f"attribute '.{node.attr}' walks frames or code (a sandbox escape)")
        elif node.attr in REFUSED_ATTRIBUTES:
            self.error(node, f"attribute '.{node.attr}' reads attributes named in a string; use an f-string")  # fmt: skip
        elif node.attr not in ALLOWED_ATTRIBUTES:
            self.error(node, f"attribute '.{node.attr}' is not one an atom may read (methods of str, list, dict, a regex match, a date, and the allowed modules' names)")  # fmt: skip
        else:
            self._module_walk(node)
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        self.error(node, "a class pattern in match reads attributes by name; match values, sequences or mappings")  # fmt: skip
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for decorator in node.decorator_list:
            self.error(decorator, f"decorator on '{node.name}': atoms are plain functions, no decorators")  # fmt: skip
        self.generic_visit(node)

    def _module_walk(self, node: ast.Attribute) -> None:
        chain: list[str] = []
        current: ast.expr = node
        while isinstance(current, ast.Attribute):
            chain.insert(0, current.attr)
            current = current.value
        if not isinstance(current, ast.Name) or current.id not in self.modules:
            return
        module = self.modules[current.id]
        if chain[0] not in MODULE_NAMES[module]:
            allowed = ", ".join(sorted(MODULE_NAMES[module]))
            self.error(node, f"'{current.id}.{chain[0]}' is not a name an atom may use (allowed: {allowed})")  # fmt: skip
            return
        obj: object = _module(module)
        dotted = current.id
        for attr in chain:
            if not isinstance(obj, types.ModuleType):
                return
            obj = getattr(obj, attr, None)
            dotted += f".{attr}"
            why = _escape(obj, dotted)
            if why:
                self.error(node, f"module attribute walk: {why}")
                return

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


def _identifier_fields(node: ast.AST) -> list[str]:
    """The identifiers a node itself carries (names, attributes, keywords, aliases), dotted
    ones whole: ``Name.id``, ``Attribute.attr``, ``keyword.arg``, ``alias.name``..."""
    if isinstance(node, ast.Constant):
        return []
    found = []
    for name, value in ast.iter_fields(node):
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and name != "type_comment":
                found.append(item)
    return found


def _why_import() -> str:
    return f"(atoms do no I/O; allowed: {_ALLOWED_TEXT})"


_WHY_BUILTIN = "plain data, iteration, arithmetic and exceptions"


def _names_bound_or_read(node: ast.AST) -> list[str]:
    """The variable names a node reads or binds (not attributes or keywords)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.split(".")[0]]
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    if isinstance(node, ast.Global | ast.Nonlocal):
        return list(node.names)
    return []


def _module_globals(tree: ast.Module) -> frozenset[str]:
    """The names the module's own statements bind: they shadow builtins in every function."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.Import | ast.ImportFrom):
            names.update(_names_bound_or_read(node))
            if isinstance(node, ast.Import | ast.ImportFrom):
                names.update(n for a in node.names for n in _names_bound_or_read(a))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(names)


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


SOURCE_CONTROLS = frozenset("\t\n\r\f")
"""The only characters an atom's source may hold that are not printable (see ``one_line``)."""


def invisible_characters(text: str) -> list[tuple[int, str]]:
    """Each line of ``text`` (numbered from 1) that holds a character that is not printable (a
    control, a bidirectional override or isolate, a zero-width or other format character, a
    surrogate, a private-use or unassigned code point, a line separator), with the first
    such character: text holding one can read differently from what runs or is checked."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        char = next((c for c in line if c not in SOURCE_CONTROLS and not printable(c)), None)
        if char is not None:
            found.append((number, char))
    return found


def _invisible_errors(code: str) -> list[str]:
    return [
        f"line {number}: the invisible character U+{ord(char):04X} (code may read differently"
        " from what runs); write plain text, escapes such as \\x1b in strings"
        for number, char in invisible_characters(code)
    ]


def _check_tree(code: str) -> StaticResult:
    result = StaticResult(errors=_invisible_errors(code))
    try:
        with warnings.catch_warnings():  # the atom's escapes must not print to our stderr
            warnings.simplefilter("ignore")
            tree = ast.parse(code)
    except SyntaxError as exc:
        result.errors.append(f"syntax error at line {exc.lineno}, column {exc.offset}: {exc.msg}")
        return result
    except ValueError as exc:  # e.g. a NUL byte in the source
        result.errors.append(f"the code does not parse: {exc}")
        return result
    functions = _module_level(tree, result)
    checker = _Checker(result, _module_globals(tree))
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
