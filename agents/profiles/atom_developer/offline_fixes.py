"""How the offline model fixes a draft from the validator's errors, one error at a time.

Each error is read for what it names: a forbidden import is dropped, a ``print`` call is
removed, an atom that breaks its contract (named as ``extract_context`` or "Atom A" ...) is
rewritten from the intent, a spec the code disagrees with is rewritten with it. What is not
named is kept as the user or the model wrote it. When the sample holds nothing the intent
asks for, no rewrite can help, and the fix says so instead of pretending.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from agents.profiles.atom_developer.generator import Atom, extract_sample, generate

ATOMS = ("extract_context", "validate_logic", "check_existence")
_ATOM_NAMES = {
    "extract_context": re.compile(r"\bextract_context\b|\bAtom A\b", re.I),
    "validate_logic": re.compile(r"\bvalidate_logic\b|\bAtom B\b|regex_mode|precedence", re.I),
    "check_existence": re.compile(r"\bcheck_existence\b|\bAtom C\b|evidence", re.I),
}
_IMPORT = re.compile(r"import (?:of )?'([\w.]+)'|import '?([\w.]+)'? is not allowed", re.I)
_PRINT = re.compile(r"\bprint\b")
_SPEC = re.compile(r"\bspec\b|\byaml\b|consistency|declares", re.I)
_NOTHING_FOUND = re.compile(r"finds nothing|found nothing|no item", re.I)
_LINE = re.compile(r"\bline (\d+)")
_WHOLE = re.compile(r"syntax error|no atom found|does not parse", re.I)


@dataclass
class Fix:
    """The fixed artifacts and a line per change, for the reply."""

    code: str
    spec: str
    changes: list[str] = field(default_factory=list)


def fix_draft(intent: str, sample: str, code: str, spec: str, errors: list[str]) -> Fix:
    """``code`` and ``spec`` with every error in ``errors`` addressed that can be."""
    template = generate(intent, sample)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        tree = None
    if tree is None or any(_WHOLE.search(e) for e in errors) or not code.strip():
        return Fix(template.code, spec or template.spec, ["rewrote the atoms: the code did not parse or had none"])  # fmt: skip
    fix = Fix(code, spec)
    replace: set[str] = set()
    if not spec.strip():
        fix.spec = template.spec
        fix.changes.append("wrote the spec the atoms were missing")
        if not any(
            isinstance(n, ast.FunctionDef) and n.name == "validate_logic" for n in tree.body
        ):
            replace.add("validate_logic")  # the spec is read through validate_logic
    drop_imports: set[str] = set()
    drop_print = False
    for error in errors:
        if match := _IMPORT.search(error):
            drop_imports.add((match.group(1) or match.group(2)).split(".")[0])
            continue
        if _PRINT.search(error) and (
            "forbidden" in error.lower() or "not allowed" in error.lower()
        ):
            drop_print = True
            continue
        if _NOTHING_FOUND.search(error):
            if not extract_sample(template, sample):
                fix.changes.append(
                    f"kept extract_context: the sample has no line with `{template.value_field}`, "
                    "so no rewrite can find one (give a sample that holds it)"
                )
                continue
            replace.add("extract_context")
            continue
        named = {atom for atom, pattern in _ATOM_NAMES.items() if pattern.search(error)}
        if _SPEC.search(error):
            fix.spec = template.spec
            fix.changes.append("rewrote the spec to match the intent")
            if "kind" in error.lower():
                named.add("validate_logic")
        if not named and (line := _LINE.search(error)):
            named = {_function_at(tree, int(line.group(1)))} - {""}
        replace |= named
    if replace or drop_imports or drop_print:
        fix.code = _rebuild(tree, code, template, drop_imports, replace, drop_print, fix.changes)
    if not fix.changes:
        fix.code, fix.spec = template.code, template.spec
        fix.changes.append("rewrote the atoms and the spec from the intent")
    return fix


def _function_at(tree: ast.Module, line: int) -> str:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or 0):
            return node.name
    return ""


def _rebuild(
    tree: ast.Module,
    code: str,
    template: Atom,
    drop_imports: set[str],
    replace: set[str],
    drop_print: bool,
    changes: list[str],
) -> str:
    """The module with the named changes made; untouched statements keep their source."""
    own = ast.parse(template.code)
    own_functions = {n.name: n for n in own.body if isinstance(n, ast.FunctionDef)}
    own_constants = {
        t.id: n
        for n in own.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    replace &= set(own_functions)
    head: list[str] = []  # the docstring and imports
    body: list[str] = []  # constants and functions, in the draft's order
    defined: set[str] = set()
    for node in tree.body:
        text = ast.get_source_segment(code, node) or ast.unparse(node)
        if isinstance(node, ast.Import | ast.ImportFrom):
            if _imports(node) & drop_imports:
                changes.append(f"dropped `{ast.unparse(node)}` (atoms do no I/O)")
            else:
                head.append(text)
        elif isinstance(node, ast.Expr) and not body:
            head.insert(0, text)
        elif isinstance(node, ast.FunctionDef):
            defined.add(node.name)
            if node.name in replace:
                body.append(_source(template.code, own_functions[node.name]))
                changes.append(f"rewrote `{node.name}` to its contract")
            elif drop_print and _has_print(node):
                body.append(ast.unparse(_without_prints(node)))
                changes.append(f"removed print() from `{node.name}`")
            else:
                body.append(text)
        elif isinstance(node, ast.Assign) and replace and _targets(node) & set(own_constants):
            continue  # the rewritten atoms bring their own patterns
        else:
            body.append(text)
    for name in ATOMS:
        if name in replace and name not in defined:
            body.append(_source(template.code, own_functions[name]))
            changes.append(f"added `{name}`")
    if replace:
        imports = [_source(template.code, n) for n in own.body if isinstance(n, ast.Import | ast.ImportFrom)]  # fmt: skip
        head += [line for line in imports if line not in head]
        body = [_source(template.code, n) for n in own_constants.values()] + body
    doc = [part for part in head if not part.startswith(("import", "from"))]
    imported = "\n".join(part for part in head if part.startswith(("import", "from")))
    sections = [*doc, imported, "\n\n".join(part.rstrip() for part in body)]
    return "\n\n\n".join(part.rstrip() for part in sections if part.strip()) + "\n"


def _targets(node: ast.Assign) -> set[str]:
    return {t.id for t in node.targets if isinstance(t, ast.Name)}


def _imports(node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    return {(node.module or "").split(".")[0]}


def _source(code: str, node: ast.stmt) -> str:
    return ast.get_source_segment(code, node) or ast.unparse(node)


def _is_print(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "print"
    )


def _has_print(node: ast.FunctionDef) -> bool:
    return any(_is_print(n) for n in ast.walk(node) if isinstance(n, ast.stmt))


class _DropPrints(ast.NodeTransformer):
    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                kept = [n for n in block if not _is_print(n)]
                setattr(node, name, kept or ([ast.Pass()] if name == "body" else []))
        return node


def _without_prints(node: ast.FunctionDef) -> ast.FunctionDef:
    fixed = _DropPrints().visit(node)
    assert isinstance(fixed, ast.FunctionDef)
    return ast.fix_missing_locations(fixed)
