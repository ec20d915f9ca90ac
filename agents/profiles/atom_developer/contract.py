"""The atom contract ("Architecture 10.2"), checked statically with ``ast``.

An atom is a stateless, pure Python function: type hints on every parameter and the return,
no I/O (no ``open``/``print``/``eval``...), imports only from an allowlist, nothing at module
level but imports, constants and functions. The three known atoms must keep their signatures:
``extract_context(text, source_file)``, ``validate_logic(text, pattern, parsed_fields=None,
default_match="contains", regex_mode="search")`` (with ``re.match``/``re.search`` bound to
``regex_mode``) and ``check_existence(items)``. ``extract_context`` must cast values with
``str(...)`` (the type lock).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

ALLOWED_IMPORTS = frozenset(
    {
        "re",
        "typing",
        "collections",
        "dataclasses",
        "itertools",
        "functools",
        "math",
        "string",
        "enum",
        "json",
        "datetime",
        "fnmatch",
    }
)
FORBIDDEN_CALLS = frozenset(
    {
        "open",
        "print",
        "eval",
        "exec",
        "compile",
        "input",
        "__import__",
        "globals",
        "locals",
        "breakpoint",
        "getattr",
        "setattr",
        "delattr",
        "vars",
    }
)
KNOWN_ATOMS: dict[str, list[str]] = {
    "extract_context": ["text", "source_file"],
    "validate_logic": ["text", "pattern", "parsed_fields", "default_match", "regex_mode"],
    "check_existence": ["items"],
}


@dataclass
class Report:
    functions: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    def render(self) -> str:
        head = "VALID" if self.valid else "INVALID"
        lines = [f"{head}: atom functions found: {', '.join(self.functions) or 'none'}"]
        lines += [f"error: {e}" for e in self.errors]
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _dotted(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return f"{_dotted(func.value)}.{func.attr}"
    return ""


def _check_function(fn: ast.FunctionDef, report: Report) -> None:
    args = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    for arg in args:
        if arg.annotation is None:
            report.errors.append(f"{fn.name}: parameter {arg.arg!r} has no type hint")
    if fn.returns is None:
        report.errors.append(f"{fn.name}: the return type has no type hint")
    if fn.name in KNOWN_ATOMS:
        expected = KNOWN_ATOMS[fn.name]
        names = [a.arg for a in args]
        if names != expected:
            report.errors.append(
                f"{fn.name}: signature must be ({', '.join(expected)}), got ({', '.join(names)})"
            )
    called = {_dotted(c.func) for c in _calls(fn)}
    if fn.name == "extract_context" and "str" not in called:
        report.errors.append("extract_context: values must be cast with str(...) (type lock)")
    if fn.name == "validate_logic" and not {"re.match", "re.search"} <= called:
        report.errors.append(
            "validate_logic: must use re.match for regex_mode='match' and re.search for 'search'"
        )
    if not ast.get_docstring(fn):
        report.warnings.append(f"{fn.name}: no docstring")


def check_atom(code: str) -> Report:
    """Check ``code`` against the atom contract; never runs it."""
    report = Report()
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        report.errors.append(f"syntax error on line {exc.lineno}: {exc.msg}")
        return report
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            report.functions.append(node.name)
            _check_function(node, report)
        elif isinstance(node, ast.AsyncFunctionDef | ast.ClassDef):
            report.errors.append(f"{node.name}: atoms are plain functions (no classes, no async)")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            continue
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring
        elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
            getattr(node, "value", None), ast.Constant | ast.Tuple | ast.Call
        ):
            continue  # a module constant (e.g. a compiled pattern)
        else:
            report.errors.append(f"line {node.lineno}: module-level statements break statelessness")
    if not report.functions:
        report.errors.append("no function found: an atom is a function")
    for found in ast.walk(tree):
        if isinstance(found, ast.Import | ast.ImportFrom):
            node = found
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            for module in modules:
                if module.split(".")[0] not in ALLOWED_IMPORTS:
                    report.errors.append(
                        f"line {node.lineno}: import of {module!r} is not allowed (allowed: {', '.join(sorted(ALLOWED_IMPORTS))})"
                    )
        elif isinstance(node, ast.Call) and _dotted(node.func) in FORBIDDEN_CALLS:
            report.errors.append(
                f"line {node.lineno}: call to {_dotted(node.func)}() is forbidden (atoms do no I/O)"
            )
        elif isinstance(node, ast.Global | ast.Nonlocal):
            report.errors.append(
                f"line {node.lineno}: global state is forbidden (atoms are stateless)"
            )
    return report
