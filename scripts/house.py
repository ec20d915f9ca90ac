"""The shape of the code base: modules, import edges, import circles, largest file, and the
profile names the app still tests.

Every ``import`` counts, as import-linter counts them: at module level, under
``if TYPE_CHECKING:`` and inside functions. A circle is a group of modules that import one
another in a ring (a strongly connected component of more than one module).

Run: ``.venv/bin/python scripts/house.py`` from the repository root.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PACKAGES = ("agents", "storage", "weaver_tui", "themes")


def profile_literal() -> re.Pattern[str]:
    """A quoted profile name, for every profile the registry holds."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from agents.profile_registry import PROFILE_NAMES

    names = "|".join(re.escape(name) for name in PROFILE_NAMES)
    return re.compile(rf"""["']({names})["']""")


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name ``module`` imports (absolute; relative imports resolved)."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def graph(root: Path) -> tuple[dict[str, set[str]], dict[str, int]]:
    files = {
        module_name(root, path): path
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
    }
    edges: dict[str, set[str]] = {}
    lines: dict[str, int] = {}
    for module, path in files.items():
        text = path.read_text(encoding="utf-8")
        lines[module] = text.count("\n")
        targets = imported(ast.parse(text), module, path.name == "__init__.py")
        edges[module] = {t for t in targets if t in files and t != module}
    return edges, lines


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def profile_literals(root: Path) -> int:
    literal = profile_literal()
    return sum(
        1
        for path in (root / "weaver_tui").rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if literal.search(line)
    )


OFFLINE_PACKAGES = ("agents", "weaver_tui", "storage")
REGEX_CALLS = re.compile(
    r"\b(?:re|regex)\.(?:compile|search|match|fullmatch|findall|finditer|sub|subn|split)\("
)


def offline_budget(root: Path) -> tuple[int, int]:
    """(physical lines, regular-expression calls) of every ``.py`` file under the packages whose
    path contains "offline": the offline demo model's size."""
    lines = calls = 0
    for package in OFFLINE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "offline" in path.relative_to(root).as_posix():
                text = path.read_text(encoding="utf-8")
                lines += len(text.splitlines())
                calls += len(REGEX_CALLS.findall(text))
    return lines, calls


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()
    edges, lines = graph(root)
    found = circles(edges)
    largest = max(lines, key=lines.__getitem__)
    print(f"modules: {len(edges)}")
    print(f"import edges: {sum(len(t) for t in edges.values())}")
    print(f"circles: {len(found)}")
    for component in found:
        print(f"  {' ↔ '.join(component)}")
    print(f"largest file: {largest} ({lines[largest]} lines)")
    print(f"profile-name literals in weaver_tui/: {profile_literals(root)}")
    offline_lines, offline_calls = offline_budget(root)
    print(
        f"offline model: {offline_lines} lines (budget 1500), {offline_calls} re calls (budget 15)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
